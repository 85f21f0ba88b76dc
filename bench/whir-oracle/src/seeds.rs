//! `seeds`: every Fiat–Shamir sub-transcript seed a real proof absorbs, recovered from the
//! challenger trace and named through the public `DomainSeparator` constructors.
//!
//! How: a prove runs with the permutation trace on. The absorbed element stream is rebuilt from
//! consecutive records (a duplexing writes k inputs into slots 0..k and adds k to slot 8, so
//! k = in[8] - prev_out[8] and the inputs are in[0..k]). `DomainSeparator::seed` absorbs
//! `[len, 3-byte LE chunks of seed_bytes]` (p3-challenger fs/transcript_field.rs); a seed is
//! recognised by its first chunk `[version, 'p', '3']` after a plausible length. The bytes are
//! `[protocol_id(64) | keccak(pattern)(32) | u32be(label len) | label | 0x80]`.
//!
//! The pattern render (`{:#}`) comes from the public constructor whose protocol id, pattern
//! hash and label all match: `commitment_domain_separator`, `WhirShape::domain_separator`,
//! `SumcheckShape::domain_separator`. The layout opening / ood / batching separators are
//! `pub(crate)` in p3-sumcheck 0.9.0-rc.2: for those the seed bytes are exact but
//! `pattern` is null.

use p3_challenger::fs::{DomainSeparator, FieldUnit};
use p3_field::PrimeField32;
use p3_sumcheck::layout::commitment_domain_separator;
use p3_sumcheck::strategy::Basis;
use p3_sumcheck::transcript::SumcheckShape;
use p3_whir::WhirShape;
use serde_json::json;

use crate::setup::{EF, F, Params, build_config};
use crate::trace::{self, PermRecord};

const P: u64 = F::ORDER_U32 as u64;

/// The absorbed stream: (element, index of the permutation that absorbed it).
fn absorbed(records: &[PermRecord]) -> Vec<(u32, usize)> {
    let mut out = Vec::new();
    let mut prev8 = 0u64;
    for (i, r) in records.iter().enumerate() {
        let k = ((r.input[8] as u64 + P - prev8) % P) as usize;
        out.extend(r.input[..k.min(8)].iter().map(|&x| (x, i)));
        prev8 = r.output[8] as u64;
    }
    out
}

struct Seed {
    bytes: Vec<u8>,
    perm: usize,
}

fn find_seeds(stream: &[(u32, usize)]) -> Vec<Seed> {
    let mut seeds = Vec::new();
    let mut j = 0;
    while j + 1 < stream.len() {
        let (len, perm) = (stream[j].0 as usize, stream[j].1);
        let c = stream[j + 1].0.to_le_bytes();
        let looks = (101..4096).contains(&len) && c[1] == b'p' && c[2] == b'3' && c[3] == 0;
        let chunks = len.div_ceil(3);
        if looks && j + 1 + chunks <= stream.len() {
            let mut bytes: Vec<u8> = stream[j + 1..j + 1 + chunks]
                .iter()
                .flat_map(|(x, _)| x.to_le_bytes()[..3].to_vec())
                .collect();
            bytes.truncate(len);
            if bytes.last() == Some(&0x80) {
                seeds.push(Seed { bytes, perm });
                j += 1 + chunks;
                continue;
            }
        }
        j += 1;
    }
    seeds
}

type Ds = DomainSeparator<FieldUnit<F>>;

/// Every separator this config can build through public APIs.
fn candidates(p: &Params) -> Vec<(String, Ds)> {
    let mut out = vec![("p3_sumcheck::layout::commitment_domain_separator".into(), commitment_domain_separator::<F>())];
    if let Ok(config) = build_config(p) {
        let shape = WhirShape::new(&config, 1);
        out.push(("p3_whir::WhirShape::new(&config, 1).domain_separator".into(), shape.domain_separator::<F, EF>()));
        for rounds in 0..=config.num_variables() {
            for pow in 0..=30 {
                for basis in [Basis::Evaluation, Basis::Projective] {
                    let s = SumcheckShape::new(rounds, pow, basis);
                    out.push((format!("p3_sumcheck::transcript::SumcheckShape::new({rounds}, {pow}, {basis:?})"), s.domain_separator::<F, EF>()));
                }
            }
        }
    }
    out
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn print(p: &Params, evals: Vec<F>) {
    trace::start();
    let _ = crate::ops::prove(p, evals, None);
    let records = trace::take();
    let seeds = find_seeds(&absorbed(&records));
    let cands = candidates(p);
    let mut seen: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
    for s in seeds {
        match seen.iter_mut().find(|(b, _)| *b == s.bytes) {
            Some((_, uses)) => uses.push(s.perm),
            None => seen.push((s.bytes, vec![s.perm])),
        }
    }
    for (bytes, uses) in seen {
        let (id, hash) = (&bytes[..64], &bytes[64..96]);
        let label_len = u32::from_be_bytes(bytes[96..100].try_into().unwrap()) as usize;
        let label = &bytes[100..100 + label_len];
        let name = String::from_utf8_lossy(&id[1..1 + id[63] as usize]).into_owned();
        let found = cands.iter().find(|(_, ds)| {
            ds.protocol_id()[..] == *id && ds.pattern().pattern_hash()[..] == *hash && ds.instance_label() == label
        });
        println!(
            "{}",
            json!({
                "name": name,
                "version": id[0],
                "label_hex": hex(label),
                "pattern_hash_hex": hex(hash),
                "pattern": found.map(|(_, ds)| format!("{:#}", ds.pattern())),
                "source": found.map_or("not public in 0.9.0-rc.2 (layout transcript is pub(crate))".to_string(), |(s, _)| s.clone()),
                "seed_hex": hex(&bytes),
                "seed_len": bytes.len(),
                "uses_at_perm": uses,
            })
        );
    }
}
