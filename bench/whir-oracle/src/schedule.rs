//! `config` and `config --grid`: the derived `WhirConfig` as the TS `WhirSchedule` record
//! (src/whir/schedule.ts), field by field in camelCase.
//!
//! `max_log_domain_size`, `domain_id` and `stratified_queries` have no public accessor in
//! p3-whir 0.9.0-rc.2; they are read from the config's derived `Debug` output (the real values,
//! not re-derived), which is stable for a pinned crate version.

use p3_whir::parameters::FoldingFactor;
use serde_json::{Value, json};

use crate::setup::{Config, Params, build_config};

fn folding_json(f: &FoldingFactor) -> Value {
    match f {
        FoldingFactor::Constant(k) => json!({"kind": "Constant", "factor": k}),
        FoldingFactor::ConstantFromSecondRound(a, b) => {
            json!({"kind": "ConstantFromSecondRound", "first": a, "rest": b})
        }
        FoldingFactor::PerRound(v) => json!({"kind": "PerRound", "factors": v}),
    }
}

/// The text after `field: ` in a derived Debug, up to the matching `,` at depth 0.
fn debug_field<'a>(debug: &'a str, field: &str) -> Option<&'a str> {
    let start = debug.find(&format!("{field}: "))? + field.len() + 2;
    let rest = &debug[start..];
    let mut depth = 0i32;
    for (i, c) in rest.char_indices() {
        match c {
            '[' | '{' | '(' => depth += 1,
            ']' | '}' | ')' if depth > 0 => depth -= 1,
            ',' | '}' | ')' if depth == 0 => return Some(rest[..i].trim()),
            _ => {}
        }
    }
    None
}

pub fn schedule_json(config: &Config) -> Value {
    let debug = format!("{config:?}");
    let max_log: Value = debug_field(&debug, "max_log_domain_size")
        .and_then(|s| s.parse::<u64>().ok())
        .map_or(Value::Null, Value::from);
    let domain_id: Value = debug_field(&debug, "domain_id")
        .and_then(|s| serde_json::from_str::<Vec<u8>>(s).ok())
        .map_or(Value::Null, |v| json!(v));
    let stratified: Value = debug_field(&debug, "stratified_queries")
        .and_then(|s| s.parse::<bool>().ok())
        .map_or(Value::Null, Value::from);
    let p = config.params();
    let rounds: Vec<Value> = config
        .round_parameters()
        .iter()
        .map(|r| {
            json!({
                "powBits": r.pow_bits,
                "foldingPowBits": r.folding_pow_bits,
                "numQueries": r.num_queries,
                "oodSamples": r.ood_samples,
                "numVariables": r.num_variables,
                "foldingFactor": r.folding_factor,
                "logInvRate": r.log_inv_rate,
                "domainSize": r.domain_size,
                "logFoldedDomainSize": r.log_folded_domain_size,
            })
        })
        .collect();
    let terminal = config.terminal();
    json!({
        "numVariables": config.num_variables(),
        "maxLogDomainSize": max_log,
        "domainId": domain_id,
        "stratifiedQueries": stratified,
        "params": {
            "securityLevel": p.security_level,
            "powBits": p.pow_bits,
            "foldingFactor": folding_json(&p.folding_factor),
            "soundness": format!("{:?}", p.soundness_type),
            "startingLogInvRate": p.starting_log_inv_rate,
            "roundLogInvRates": p.round_log_inv_rates,
        },
        "rounds": rounds,
        "foldingSchedule": config.folding_schedule(),
        "commitmentOodSamples": config.commitment_ood_samples(),
        "startingFoldingPowBits": config.starting_folding_pow_bits(),
        "terminal": {"numQueries": terminal.num_queries, "powBits": terminal.pow_bits},
        "finalSumcheckRounds": config.final_sumcheck_rounds(),
        "finalFoldingPowBits": config.final_folding_pow_bits(),
    })
}

fn input_json(p: &Params) -> Value {
    serde_json::to_value(p).expect("params serialize")
}

/// The grid the TS params derivation is tested against: n 6..=22, fold 1..=6, rate 1..=3,
/// sec {80,90,100}, pow {0,16}, CapacityBound, default rates; plus a few PerRound and explicit
/// rate schedules (the whir-p3-metal "initial reduction" rates r+f-min(f,3), then +f-1).
pub fn grid() -> Value {
    let mut inputs = Vec::new();
    for n in 6..=22 {
        for fold in 1..=6 {
            for rate in 1..=3 {
                for sec in [80, 90, 100] {
                    for pow in [0, 16] {
                        inputs.push(params(n, fold, rate, sec, pow, vec![], vec![]));
                    }
                }
            }
        }
    }
    for (n, factors) in [(12, vec![3, 2]), (16, vec![4, 3, 3]), (18, vec![5, 4, 2]), (20, vec![2, 4, 4, 4])] {
        inputs.push(params(n, factors[0], 1, 90, 16, vec![], factors));
    }
    for (n, fold, rate) in [(18, 4, 1), (20, 4, 1), (20, 2, 1), (16, 5, 2)] {
        let mut rates = Vec::new();
        let mut r = rate + fold - fold.min(3);
        let (rounds, _) = FoldingFactor::Constant(fold).compute_number_of_rounds(n).unwrap();
        for _ in 0..rounds {
            rates.push(r);
            r += fold - 1;
        }
        inputs.push(params(n, fold, rate, 90, 16, rates, vec![]));
    }
    for s in ["UniqueDecoding", "JohnsonBound"] {
        let mut p = params(16, 4, 1, 90, 16, vec![], vec![]);
        p.soundness = s.into();
        inputs.push(p);
    }
    Value::Array(
        inputs
            .iter()
            .map(|p| match build_config(p) {
                Ok(c) => json!({"input": input_json(p), "schedule": schedule_json(&c)}),
                Err(e) => json!({"input": input_json(p), "error": format!("{e:?}")}),
            })
            .collect(),
    )
}

fn params(n: usize, fold: usize, rate: usize, sec: usize, pow: usize, rates: Vec<usize>, ff: Vec<usize>) -> Params {
    Params {
        n,
        fold,
        rate,
        sec,
        pow,
        soundness: "CapacityBound".into(),
        rates,
        folding_factors: ff,
    }
}
