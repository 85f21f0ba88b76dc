//! whir-oracle: a CLI over Plonky3's published `p3-whir = 0.9.0-rc.2` that the TypeScript WHIR
//! prover is checked against (whir.md §5). Subcommands: config, prove, verify, commit,
//! commit-ext, seeds, bench. See bench/native/README.md.

mod ops;
mod phases;
mod schedule;
mod seeds;
mod setup;
mod trace;

use std::collections::HashMap;
use std::process::exit;

use p3_field::PrimeField32;

use setup::{F, Params, read_u32_file, seeded_evals};

const USAGE: &str = "usage: whir-oracle <config|prove|verify|commit|commit-ext|seeds|bench> [options]
  config     --n N --fold K --rate R [--sec 90 --pow 16 --soundness CapacityBound --rates a,b --folding-factors a,b] | --grid
  prove      (params) (--poly FILE | --seed S) --out proof.json [--point FILE] [--trace trace.jsonl] [--threads T]
  verify     FILE
  commit     (params) (--poly FILE | --seed S)
  commit-ext --m M --fold K --rate R --file FILE
  seeds      (params) [--seed S]
  bench      (params) [--seed S] [--runs 5] [--phases] [--phases-spans]";

/// `--key value` pairs plus positional arguments; `--grid`, `--phases`, `--phases-spans` are bare flags.
struct Args {
    opts: HashMap<String, String>,
    positional: Vec<String>,
}

impl Args {
    fn parse(raw: &[String]) -> Self {
        let (mut opts, mut positional) = (HashMap::new(), Vec::new());
        let mut it = raw.iter();
        while let Some(a) = it.next() {
            if let Some(key) = a.strip_prefix("--") {
                if matches!(key, "grid" | "phases" | "phases-spans") {
                    opts.insert(key.into(), "true".into());
                } else {
                    let v = it.next().unwrap_or_else(|| fail(&format!("--{key} needs a value")));
                    opts.insert(key.into(), v.clone());
                }
            } else {
                positional.push(a.clone());
            }
        }
        Self { opts, positional }
    }

    fn get(&self, k: &str) -> Option<&str> {
        self.opts.get(k).map(String::as_str)
    }

    fn num(&self, k: &str, default: Option<usize>) -> usize {
        match self.get(k) {
            Some(v) => v.parse().unwrap_or_else(|_| fail(&format!("--{k}: not a number: {v}"))),
            None => default.unwrap_or_else(|| fail(&format!("--{k} is required"))),
        }
    }

    fn list(&self, k: &str) -> Vec<usize> {
        self.get(k).map_or_else(Vec::new, |v| {
            v.split(',')
                .map(|x| x.trim().parse().unwrap_or_else(|_| fail(&format!("--{k}: bad list {v}"))))
                .collect()
        })
    }

    fn params(&self) -> Params {
        let folding_factors = self.list("folding-factors");
        let fold = match self.get("fold") {
            Some(_) => self.num("fold", None),
            None => *folding_factors.first().unwrap_or_else(|| fail("--fold is required")),
        };
        Params {
            n: self.num("n", None),
            fold,
            rate: self.num("rate", None),
            sec: self.num("sec", Some(90)),
            pow: self.num("pow", Some(16)),
            soundness: self.get("soundness").unwrap_or("CapacityBound").into(),
            rates: self.list("rates"),
            folding_factors,
        }
    }

    /// The table: `--poly FILE` (2^n LE u32 canonical) or `--seed S` (splitmix64, default 0).
    fn evals(&self, n: usize) -> Vec<F> {
        match (self.get("poly"), self.get("seed")) {
            (Some(path), _) => read_u32_file(path, 1 << n).unwrap_or_else(|e| fail(&e)),
            (None, s) => seeded_evals(s.map_or(0, |s| s.parse().unwrap_or_else(|_| fail("--seed"))), n),
        }
    }
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}\n{USAGE}");
    exit(64)
}

fn set_threads(a: &Args) {
    if let Some(t) = a.get("threads") {
        let t: usize = t.parse().unwrap_or_else(|_| fail("--threads"));
        rayon::ThreadPoolBuilder::new().num_threads(t).build_global().expect("rayon pool");
    }
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let Some(cmd) = raw.first() else { fail("missing subcommand") };
    let a = Args::parse(&raw[1..]);
    set_threads(&a);
    match cmd.as_str() {
        "config" => cmd_config(&a),
        "prove" => cmd_prove(&a),
        "verify" => cmd_verify(&a),
        "commit" => {
            let p = a.params();
            let root = ops::commit(&p, a.evals(p.n));
            println!("{}", serde_json::to_string(&root).unwrap());
        }
        "commit-ext" => {
            let (m, fold, rate) = (a.num("m", None), a.num("fold", None), a.num("rate", None));
            let path = a.get("file").unwrap_or_else(|| fail("--file is required"));
            let coeffs = read_u32_file(path, 4 << m).unwrap_or_else(|e| fail(&e));
            println!("{}", serde_json::to_string(&ops::commit_ext(m, fold, rate, &coeffs)).unwrap());
        }
        "seeds" => {
            let p = a.params();
            seeds::print(&p, a.evals(p.n));
        }
        "bench" => {
            let p = a.params();
            let evals = a.evals(p.n);
            let (phases, spans) = (a.get("phases").is_some(), a.get("phases-spans").is_some());
            if phases || spans {
                phases::install();
            }
            println!("{}", ops::bench(&p, &evals, a.num("runs", Some(5)), phases || spans, spans));
        }
        "help" | "--help" | "-h" => println!("{USAGE}"),
        other => fail(&format!("unknown subcommand {other}")),
    }
}

fn cmd_config(a: &Args) {
    if a.get("grid").is_some() {
        println!("{}", schedule::grid());
        return;
    }
    match setup::build_config(&a.params()) {
        Ok(c) => println!("{}", schedule::schedule_json(&c)),
        Err(e) => {
            println!("CONFIG ERROR: {e:?}");
            exit(2)
        }
    }
}

fn cmd_prove(a: &Args) {
    let p = a.params();
    let out = a.get("out").unwrap_or_else(|| fail("--out is required"));
    let evals = a.evals(p.n);
    // `--point FILE`: 4·n LE u32 canonical coefficients, element i = x_i of the crate's `Point`.
    let point = a.get("point").map(|path| {
        let coeffs = read_u32_file(path, 4 * p.n).unwrap_or_else(|e| fail(&e));
        coeffs.chunks_exact(4).map(|c| core::array::from_fn(|j| c[j].as_canonical_u32())).collect::<Vec<[u32; 4]>>()
    });
    if a.get("trace").is_some() {
        trace::start();
    }
    let run = ops::prove(&p, evals, point);
    if let Some(path) = a.get("trace") {
        let records = trace::take();
        trace::write_jsonl(path, &records).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        println!("trace: {} permutations -> {path}", records.len());
    }
    let json = serde_json::to_string(&run.file).unwrap();
    std::fs::write(out, &json).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
    let root: Vec<u32> = run.file.commitment.roots()[0].iter().map(|x| x.as_canonical_u32()).collect();
    println!("commit: {:.2} ms", run.commit_ms);
    println!("prove: {:.2} ms", run.prove_ms);
    println!("root (canonical): {root:?}");
    println!("proof: {} bytes json -> {out}", json.len());
    println!("PROVE OK");
}

fn cmd_verify(a: &Args) {
    let path = a.positional.first().unwrap_or_else(|| fail("verify FILE"));
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        println!("VERIFY FAILED: read: {e}");
        exit(1)
    });
    let result = ops::parse_proof_file(&text).and_then(|f| ops::verify(&f));
    match result {
        Ok(ms) => println!("VERIFY OK ({ms:.2} ms)"),
        Err(e) => {
            println!("VERIFY FAILED: {e}");
            exit(1)
        }
    }
}
