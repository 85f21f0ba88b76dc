//! The PCS operations behind `prove`, `verify`, `commit`, `commit-ext` and `bench`, all through
//! p3-whir's public `MultilinearPcs` entry points. Proof files are serde_json of the real
//! structs (`MerkleCap`, `PcsProof`): BabyBear values appear in Montgomery form.

use std::time::Instant;

use p3_commit::{ExtensionMmcs, Mmcs as _, MultilinearPcs};
use p3_multilinear_util::point::Point;
use p3_sumcheck::PrescribedPointPcs;
use p3_dft::TwoAdicSubgroupDft;
use p3_field::{BasedVectorSpace, PrimeCharacteristicRing, PrimeField32};
use p3_matrix::dense::RowMajorMatrix;
use p3_whir::pcs::proof::PcsProof;
use serde::{Deserialize, Serialize};

use crate::setup::{
    Config, Dft, EF, F, Mmcs, Params, build_config, build_pcs, challenger, mmcs, witness,
};

pub type Commitment = <Mmcs as p3_commit::Mmcs<F>>::Commitment;
pub type Proof = PcsProof<F, EF, Mmcs>;

/// The interchange file: the caller's parameters (flattened), the root and the proof, and the
/// opening point when the caller gave one (`open_at`): n elements of 4 CANONICAL u32
/// coefficients, `Point` order (x_0 = the hypercube index's most significant bit first).
#[derive(Serialize, Deserialize)]
pub struct ProofFile {
    #[serde(flatten)]
    pub params: Params,
    pub commitment: Commitment,
    pub proof: Proof,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<Vec<[u32; 4]>>,
}

/// A file's canonical point as the crate's `Point<EF>`; rejects values >= p.
pub fn point_from_canonical(coords: &[[u32; 4]]) -> Result<Point<EF>, String> {
    let coords = coords
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if let Some(v) = c.iter().find(|&&v| v >= F::ORDER_U32) {
                return Err(format!("point[{i}]: {v} is not canonical (>= p)"));
            }
            let base: Vec<F> = c.iter().map(|&v| F::from_u32(v)).collect();
            Ok(EF::from_basis_coefficients_slice(&base).expect("4 coefficients"))
        })
        .collect::<Result<Vec<EF>, String>>()?;
    Ok(Point::new(coords))
}

pub struct Timed<T> {
    pub value: T,
    pub ms: f64,
}

fn timed<T>(f: impl FnOnce() -> T) -> Timed<T> {
    let t = Instant::now();
    let value = f();
    Timed { value, ms: t.elapsed().as_secs_f64() * 1e3 }
}

fn config_or_exit(p: &Params) -> Config {
    build_config(p).unwrap_or_else(|e| {
        println!("CONFIG ERROR: {e:?}");
        std::process::exit(2)
    })
}

/// Commit only: the root, with the challenger state left as the PCS leaves it.
pub fn commit(p: &Params, evals: Vec<F>) -> Commitment {
    let pcs = build_pcs(config_or_exit(p));
    let w = witness(p, evals);
    assert_eq!(w.num_variables(), p.padded_num_variables(), "witness / protocol arity");
    let (root, _) = pcs.commit(w, &mut challenger()).expect("commit");
    root
}

pub struct ProveRun {
    pub file: ProofFile,
    pub commit_ms: f64,
    pub prove_ms: f64,
}

/// Commit and open on one challenger, exactly as the upstream example does; with `point`, the
/// open is `PrescribedPointPcs::open_at` at that point instead of `open` at a drawn one.
pub fn prove(p: &Params, evals: Vec<F>, point: Option<Vec<[u32; 4]>>) -> ProveRun {
    let pcs = build_pcs(config_or_exit(p));
    let w = witness(p, evals);
    assert_eq!(w.num_variables(), p.padded_num_variables(), "witness / protocol arity");
    let mut ch = challenger();
    let c = timed(|| pcs.commit(w, &mut ch).expect("commit"));
    let (commitment, data) = c.value;
    // `open` / `open_at` is where the initial-claims budget is checked (InitialClaimsBelowTarget).
    let given = point.as_ref().map(|c| {
        let pt = point_from_canonical(c).unwrap_or_else(|e| {
            println!("POINT ERROR: {e}");
            std::process::exit(64)
        });
        assert_eq!(pt.num_variables(), p.padded_num_variables(), "point arity");
        pt
    });
    let o = timed(|| match &given {
        Some(pt) => pcs.open_at(data, &p.opening_protocol(), core::slice::from_ref(pt), &mut ch),
        None => pcs.open(data, p.opening_protocol(), &mut ch),
    });
    let o = Timed {
        value: o.value.unwrap_or_else(|e| {
            println!("CONFIG ERROR: {e:?}");
            std::process::exit(2)
        }),
        ms: o.ms,
    };
    ProveRun {
        file: ProofFile { params: p.clone(), commitment, proof: o.value, point },
        commit_ms: c.ms,
        prove_ms: o.ms,
    }
}

/// Verify a parsed file; a panic inside the verifier (malformed shapes) is reported as an error.
/// With a point in the file: `verify_at`, after observing the commitment (verify_at does not bind
/// it; its caller does, as `commit` did on the prover's side).
pub fn verify(file: &ProofFile) -> Result<f64, String> {
    let config = build_config(&file.params).map_err(|e| format!("config: {e:?}"))?;
    let pcs = build_pcs(config);
    let protocol = file.params.opening_protocol();
    let point = file.point.as_deref().map(point_from_canonical).transpose()?;
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        timed(|| match &point {
            Some(pt) => {
                let mut ch = challenger();
                pcs.observe_commitment(&file.commitment, &mut ch);
                pcs.verify_at(&file.commitment, &file.proof, &protocol, core::slice::from_ref(pt), &mut ch)
                    .map(|_| ())
            }
            None => pcs.verify(&file.commitment, &file.proof, &mut challenger(), protocol),
        })
    }));
    match run {
        Ok(Timed { value: Ok(()), ms }) => Ok(ms),
        Ok(Timed { value: Err(e), .. }) => Err(format!("{e:?}")),
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown".into());
            Err(format!("panic: {msg}"))
        }
    }
}

pub fn parse_proof_file(text: &str) -> Result<ProofFile, String> {
    serde_json::from_str(text).map_err(|e| format!("parse: {e}"))
}

/// A WHIR round >= 1 commit of 2^m EF values (p3-whir pcs/committer/writer.rs
/// `commit_extension`, Suffix branch; that function is `pub(crate)`, so the same calls are
/// made here on the public types): reshape to width 2^k, zero-pad to height 2^(m-k+rate),
/// `dft_algebra_batch` (what `WhirDomain::encode_extension_batch_padded` calls for a two-adic
/// DFT), then `ExtensionMmcs::commit_matrix`.
pub fn commit_ext(m: usize, fold: usize, rate: usize, coeffs: &[F]) -> Commitment {
    assert!(fold <= m, "fold {fold} > m {m}");
    let evals: Vec<EF> = coeffs
        .chunks_exact(4)
        .map(|c| EF::from_basis_coefficients_slice(c).expect("4 coefficients"))
        .collect();
    assert_eq!(evals.len(), 1 << m);
    let width = 1 << fold;
    let height = (1 << rate) * (1 << (m - fold));
    let mut values = EF::zero_vec(height * width);
    values[..evals.len()].copy_from_slice(&evals);
    let dft = Dft::new(height);
    let encoded = dft.dft_algebra_batch(RowMajorMatrix::new(values, width));
    let ext = ExtensionMmcs::<F, EF, Mmcs>::new(mmcs());
    ext.commit_matrix(encoded).0
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// 1 warm-up + `runs` timed runs; medians of commit, open and verify; postcard proof bytes.
/// With `phases`: also the native prover's time per phase (means per timed run, from p3's
/// tracing spans, `crate::phases`); with `spans`: the per-span-path table on stderr.
pub fn bench(p: &Params, evals: &[F], runs: usize, phases: bool, spans: bool) -> serde_json::Value {
    let (mut c, mut o, mut v) = (Vec::new(), Vec::new(), Vec::new());
    let mut size = 0;
    let mut sum: std::collections::BTreeMap<String, crate::phases::Acc> = Default::default();
    for i in 0..=runs {
        if phases {
            crate::phases::take(); // drop what earlier verifies / setup left
        }
        let run = prove(p, evals.to_vec(), None);
        if phases && i > 0 {
            for (k, a) in crate::phases::take() {
                let s = sum.entry(k).or_default();
                s.incl += a.incl;
                s.excl += a.excl;
                s.count += a.count;
            }
        }
        let vms = verify(&run.file).expect("bench proof must verify");
        size = postcard::to_allocvec(&run.file.proof).expect("postcard").len();
        if i > 0 {
            c.push(run.commit_ms);
            o.push(run.prove_ms);
            v.push(vms);
        }
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let (mean_c, mean_o) = (mean(&c), mean(&o));
    let (cm, om) = (median(c), median(o));
    let mut out = serde_json::json!({
        "n": p.n, "fold": p.fold, "rate": p.rate, "sec": p.sec, "pow": p.pow, "runs": runs,
        "threads": rayon::current_num_threads(),
        "commitMs": cm, "proveMs": om, "commitPlusProveMs": cm + om, "verifyMs": median(v),
        "proofBytesPostcard": size,
    });
    if phases {
        let n = runs.max(1) as f64;
        if spans {
            eprintln!("{:>10} {:>10} {:>8}  span path (ms per run: inclusive, exclusive; calls per run)", "incl", "excl", "calls");
            for (k, a) in &sum {
                eprintln!("{:>10.3} {:>10.3} {:>8.1}  {k}", a.incl / n, a.excl / n, a.count as f64 / n);
            }
        }
        let (phases, per_round) = crate::phases::map(&sum, n, mean_c, mean_o);
        out["phases"] = phases;
        out["phasesPerRound"] = per_round;
    }
    out
}
