//! Plonky3 (0.9.0-rc.2) BabyBear benchmarks: DFT / LDE / encode, Poseidon2, Merkle commit, grinding.

use p3_baby_bear::{default_babybear_poseidon2_16, BabyBear, Poseidon2BabyBear};
use p3_challenger::{CanObserve, DuplexChallenger, GrindingChallenger};
use p3_commit::{Encoder, Mmcs};
use p3_dft::{Radix2DFTSmallBatch, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_field::{Field, PackedValue, PrimeField32};
use p3_matrix::dense::RowMajorMatrix;
use p3_matrix::Matrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_monty_31::dft::RecursiveDft;
use p3_symmetric::{PaddingFreeSponge, Permutation, TruncatedPermutation};
use rayon::prelude::*;
use serde_json::{json, Value};

use crate::util::{emit, measure, r3, Reps, Rng};

pub type F = BabyBear;
pub type P = <F as Field>::Packing;
pub type Perm16 = Poseidon2BabyBear<16>;
pub type Sponge = PaddingFreeSponge<Perm16, 16, 8, 8>;
pub type Compress = TruncatedPermutation<Perm16, 2, 8, 16>;
/// Plonky3 0.9.0-rc.2 signature: `MerkleTreeMmcs<P, PW, H, C, N (arity), DIGEST_ELEMS>`.
pub type Mmcs16 = MerkleTreeMmcs<P, P, Sponge, Compress, 2, 8>;
pub type Challenger = DuplexChallenger<F, Perm16, 16, 8>;

pub const LDE_SHIFT: u32 = 31; // BabyBear::GENERATOR, the Plonky3 convention.

pub fn random_matrix(log_n: usize, width: usize, seed: u64) -> RowMajorMatrix<F> {
    let n = (1usize << log_n) * width;
    // Fill in parallel chunks (each chunk has its own stream) so 2^24 x 16 is quick.
    const CH: usize = 1 << 16;
    let mut values = vec![F::new(0); n];
    values.par_chunks_mut(CH).enumerate().for_each(|(i, c)| {
        let mut rng = Rng::new(seed.wrapping_mul(0x1000_0000_01B3).wrapping_add(i as u64));
        for v in c.iter_mut() {
            *v = F::new(rng.babybear_u32());
        }
    });
    RowMajorMatrix::new(values, width)
}

pub fn mmcs16() -> Mmcs16 {
    let perm = default_babybear_poseidon2_16();
    Mmcs16::new(Sponge::new(perm.clone()), Compress::new(perm), 0)
}

fn is_bitrev<T>() -> &'static str {
    if std::any::type_name::<T>().contains("BitRevers") {
        "bitrev_view"
    } else {
        "natural"
    }
}

#[allow(clippy::too_many_arguments)]
fn dft_one<D: TwoAdicSubgroupDft<F>>(
    imp: &str,
    op: &str,
    input: &RowMajorMatrix<F>,
    log_n: usize,
    width: usize,
    reps: Reps,
) {
    let dft = D::default(); // fresh instance: first_call_ms includes twiddle generation
    let threads = rayon::current_num_threads();
    let shift = F::new(LDE_SHIFT);
    let (st, output) = match op {
        "dft" => (
            measure(reps, |_| input.clone(), |m| dft.dft_batch(m), |_, _, _| {}),
            is_bitrev::<D::Evaluations>(),
        ),
        "coset_lde" => (
            measure(reps, |_| input.clone(), |m| dft.coset_lde_batch(m, 1, shift), |_, _, _| {}),
            is_bitrev::<D::Evaluations>(),
        ),
        "encode" => (
            measure(reps, |_| input.clone(), |m| Encoder::encode_batch(&dft, m, 1), |_, _, _| {}),
            "natural",
        ),
        _ => panic!("unknown dft op {op}"),
    };
    let mut params = vec![
        ("op", json!(op)),
        ("impl", json!(imp)),
        ("log_n", json!(log_n)),
        ("width", json!(width)),
    ];
    match op {
        "coset_lde" => {
            params.push(("added_bits", json!(1)));
            params.push(("shift", json!(LDE_SHIFT)));
        }
        "encode" => params.push(("log_inv_rate", json!(1))),
        _ => {}
    }
    emit("dft", params, threads, &st, vec![("output", json!(output))]);
}

pub const DFT_IMPLS: &[&str] = &["radix2_dit_parallel", "recursive"];
pub const DFT_OPS: &[&str] = &["dft", "coset_lde", "encode"];

pub fn bench_dft(log_ns: &[usize], widths: &[usize], impls: &[String], ops: &[String], reps: Reps) {
    for &log_n in log_ns {
        for &w in widths {
            let input = random_matrix(log_n, w, 1000 + log_n as u64 * 31 + w as u64);
            for op in ops {
                for imp in impls {
                    match imp.as_str() {
                        "radix2_dit_parallel" => dft_one::<Radix2DitParallel<F>>(imp, op, &input, log_n, w, reps),
                        "recursive" => dft_one::<RecursiveDft<F>>(imp, op, &input, log_n, w, reps),
                        "small_batch" => dft_one::<Radix2DFTSmallBatch<F>>(imp, op, &input, log_n, w, reps),
                        _ => panic!("unknown dft impl {imp} (radix2_dit_parallel, recursive, small_batch)"),
                    }
                }
            }
        }
    }
}

pub fn bench_poseidon2(count: usize, reps: Reps, single: bool) {
    let perm = default_babybear_poseidon2_16();
    let lanes = P::WIDTH;
    let n_packed = count.div_ceil(lanes);
    let mut rng = Rng::new(7);
    let mut states: Vec<[P; 16]> = (0..n_packed)
        .map(|_| core::array::from_fn(|_| P::from_fn(|_| F::new(rng.babybear_u32()))))
        .collect();
    let threads = rayon::current_num_threads();
    let perms = n_packed * lanes;
    // Chunks of 64 packed states (512 perms with AVX2): plenty of parallel slack, tiny overhead.
    let st = measure(
        reps,
        |_| (),
        |_| {
            states.par_chunks_mut(64).for_each(|c| {
                for s in c.iter_mut() {
                    perm.permute_mut(s);
                }
            })
        },
        |_, _, _| {},
    );
    let _keep = std::hint::black_box(states[0][0]);
    emit(
        "poseidon2",
        vec![
            ("width", json!(16)),
            ("count", json!(perms)),
            ("packing_width", json!(lanes)),
            ("mode", json!(if single { "single" } else { "all" })),
        ],
        threads,
        &st,
        vec![
            ("perms_per_s", json!(r3(perms as f64 / (st.best() / 1e3)))),
            ("perms_per_s_median", json!(r3(perms as f64 / (st.median() / 1e3)))),
        ],
    );
}

pub fn bench_merkle(log_ns: &[usize], widths: &[usize], reps: Reps) {
    let mmcs = mmcs16();
    let threads = rayon::current_num_threads();
    for &log_n in log_ns {
        for &w in widths {
            let input = random_matrix(log_n, w, 5000 + log_n as u64 * 31 + w as u64);
            let h = 1usize << log_n;
            let perms = h * w.div_ceil(8) + (h - 1);
            let mut root = [0u32; 8];
            let st = measure(
                reps,
                |_| input.clone(),
                |m| mmcs.commit_matrix(m),
                |i, out, _| {
                    if i == 0 {
                        let r = out.0.roots()[0];
                        root = core::array::from_fn(|k| r[k].as_canonical_u32());
                    }
                },
            );
            emit(
                "merkle",
                vec![
                    ("log_n", json!(log_n)),
                    ("width", json!(w)),
                    ("cap_height", json!(0)),
                    ("hash", json!("poseidon2_bb16_sponge_r8_trunc_compress")),
                ],
                threads,
                &st,
                vec![
                    ("perms", json!(perms)),
                    ("perms_per_s", json!(r3(perms as f64 / (st.best() / 1e3)))),
                    ("input_mib", json!(r3((h * w * 4) as f64 / (1 << 20) as f64))),
                    ("root", json!(root)),
                ],
            );
        }
    }
}

/// A fresh challenger that has observed a few elements (different per `salt`), so each grind
/// solves an independent puzzle.
pub fn grind_challenger(salt: u64) -> Challenger {
    let mut c = Challenger::new(default_babybear_poseidon2_16());
    for x in [1u32, 2, 3] {
        c.observe(F::new(x));
    }
    c.observe(F::new((salt % 0x7800_0001) as u32));
    c
}

pub fn bench_grind(bits_list: &[usize], reps: Reps, single: bool, seed: u64) {
    let threads = rayon::current_num_threads();
    let lanes = P::WIDTH as u64;
    for &bits in bits_list {
        let mut witnesses: Vec<u32> = Vec::new();
        let mut tried: u64 = 0;
        let st = measure(
            reps,
            |i| grind_challenger(seed.wrapping_add((bits as u64) << 20).wrapping_add(i as u64)),
            |mut c| c.grind(bits),
            |i, w, _| {
                if i > 0 {
                    let w = w.as_canonical_u32();
                    if witnesses.len() < 10 {
                        witnesses.push(w); // first 10 only, to keep the line short
                    }
                    // With one thread rayon's find_map_any scans batches in order, so the
                    // work done is the number of lane-batches up to and including the winner.
                    tried += (w as u64 / lanes + 1) * lanes;
                }
            },
        );
        let expected = (1u64 << bits) as f64;
        let total_s = st.total() / 1e3;
        let mut extra: Vec<(&str, Value)> = vec![
            ("ms_mean", json!(r3(st.mean()))),
            // Mean-based estimate: each rep costs 2^bits hashes in expectation (any thread count).
            ("hashes_per_s_expected", json!(r3(expected * st.times.len() as f64 / total_s))),
            ("witnesses", json!(witnesses)),
        ];
        if single {
            extra.push(("hashes_tried", json!(tried)));
            extra.push(("hashes_per_s_actual", json!(r3(tried as f64 / total_s))));
        }
        emit(
            "grind",
            vec![
                ("bits", json!(bits)),
                ("challenger", json!("duplex_bb_perm16_w16_r8")),
                ("mode", json!(if single { "single" } else { "all" })),
            ],
            threads,
            &st,
            extra,
        );
    }
}

/// Helpers used by the self-test.
pub fn dft_natural<D: TwoAdicSubgroupDft<F>>(op: &str, m: RowMajorMatrix<F>) -> Vec<u32> {
    let dft = D::default();
    let out: RowMajorMatrix<F> = match op {
        "dft" => dft.dft_batch(m).to_row_major_matrix(),
        "coset_lde" => dft.coset_lde_batch(m, 1, F::new(LDE_SHIFT)).to_row_major_matrix(),
        "encode" => Encoder::encode_batch(&dft, m, 1),
        _ => unreachable!(),
    };
    out.values.iter().map(|x| x.as_canonical_u32()).collect()
}

pub fn dft_natural_by_name(imp: &str, op: &str, m: RowMajorMatrix<F>) -> Vec<u32> {
    match imp {
        "radix2_dit_parallel" => dft_natural::<Radix2DitParallel<F>>(op, m),
        "recursive" => dft_natural::<RecursiveDft<F>>(op, m),
        "small_batch" => dft_natural::<Radix2DFTSmallBatch<F>>(op, m),
        _ => unreachable!(),
    }
}
