//! arkworks BN254 G1 MSM benchmark.

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::scalar_mul::ScalarMul;
use ark_ec::{PrimeGroup, VariableBaseMSM};
use ark_ff::{BigInteger, PrimeField};
use ark_std::rand::{rngs::StdRng, SeedableRng};
use ark_std::UniformRand;
use rayon::prelude::*;
use serde_json::json;

use crate::util::{emit, maybe_single, measure, Reps};

pub const ARK_VERSION: &str = "0.5";

/// `n` random scalars (deterministic per seed), generated in parallel chunks.
pub fn random_scalars(n: usize, seed: u64) -> Vec<Fr> {
    const CH: usize = 1 << 14;
    let chunks = n.div_ceil(CH);
    (0..chunks)
        .into_par_iter()
        .flat_map_iter(|c| {
            let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9).wrapping_add(c as u64));
            let len = CH.min(n - c * CH);
            (0..len).map(move |_| Fr::rand(&mut rng))
        })
        .collect()
}

/// `n` random affine bases k_i * G (random k_i), via arkworks' fixed-base windowed batch
/// multiplication (parallel) followed by one batch normalization. Not timed.
pub fn random_bases(n: usize, seed: u64) -> Vec<G1Affine> {
    let ks = random_scalars(n, seed ^ 0xB45E);
    G1Projective::generator().batch_mul(&ks)
}

pub struct MsmData {
    pub bases: Vec<G1Affine>,
    pub scalars: Vec<Fr>,
}

impl MsmData {
    pub fn new(max_log_n: usize) -> Self {
        let n = 1usize << max_log_n;
        MsmData { bases: random_bases(n, 11), scalars: random_scalars(n, 22) }
    }
}

/// Compressed fingerprint of a result (low 64 bits of affine x), for cross-run comparison.
pub fn fingerprint(p: &G1Projective) -> String {
    let a: G1Affine = (*p).into();
    if a.infinity {
        return "infinity".into();
    }
    let x = a.x.into_bigint().to_bytes_le();
    let mut v = 0u64;
    for (i, b) in x.iter().take(8).enumerate() {
        v |= (*b as u64) << (8 * i);
    }
    format!("{v:016x}")
}

pub fn bench_msm(data: &MsmData, log_ns: &[usize], reps: Reps, single: bool) {
    for &log_n in log_ns {
        let n = 1usize << log_n;
        assert!(n <= data.bases.len(), "msm data too small");
        let bases = &data.bases[..n];
        let scalars = &data.scalars[..n];
        let (threads, st, fp) = maybe_single(single, || {
            let threads = rayon::current_num_threads();
            let mut fp = String::new();
            let st = measure(
                reps,
                |_| (),
                |_| G1Projective::msm(bases, scalars).expect("lengths match"),
                |i, r, _| {
                    if i == 0 {
                        fp = fingerprint(r);
                    }
                },
            );
            (threads, st, fp)
        });
        emit(
            "msm",
            vec![
                ("curve", json!("bn254_g1")),
                ("lib", json!(format!("arkworks-ec {ARK_VERSION} VariableBaseMSM::msm"))),
                ("log_n", json!(log_n)),
                ("n", json!(n)),
                ("mode", json!(if single { "single" } else { "all" })),
            ],
            threads,
            &st,
            vec![("result_x_lo64", json!(fp))],
        );
    }
}

/// Naive sum of s_i * P_i.
pub fn naive_msm(bases: &[G1Affine], scalars: &[Fr]) -> G1Projective {
    bases.iter().zip(scalars).map(|(b, s)| *b * *s).sum()
}
