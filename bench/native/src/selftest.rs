//! Cheap correctness checks: Plonky3 test vectors from /work/shared/notes/plonky3.md §7,
//! cross-checks between DFT implementations, packed vs scalar Poseidon2, and MSM vs a naive sum.

use ark_bn254::G1Projective;
use ark_ec::VariableBaseMSM;
use p3_baby_bear::default_babybear_poseidon2_16;
use p3_challenger::{CanSample, GrindingChallenger};
use p3_commit::Mmcs;
use p3_field::{PackedValue, PrimeField32};
use p3_matrix::dense::RowMajorMatrix;
use p3_symmetric::Permutation;
use p3_challenger::{CanObserve, DuplexChallenger};
use serde_json::{json, Map};

use crate::msm;
use crate::p3bench::{self, F, P};
use crate::util::{emit_raw, maybe_single};

fn bb(v: &[u32]) -> Vec<F> {
    v.iter().map(|&x| F::new(x)).collect()
}
fn canon(v: &[F]) -> Vec<u32> {
    v.iter().map(|x| x.as_canonical_u32()).collect()
}

pub fn run() -> bool {
    let mut checks = 0usize;
    let mut failures: Vec<String> = Vec::new();
    let mut check = |name: &str, ok: bool| {
        checks += 1;
        if !ok {
            failures.push(name.to_string());
        }
    };

    // --- Poseidon2 perm16-a vector.
    let perm = default_babybear_poseidon2_16();
    let mut s: [F; 16] = core::array::from_fn(|i| F::new(i as u32));
    perm.permute_mut(&mut s);
    check(
        "perm16-a",
        canon(&s)
            == [
                1906786279, 1737026427, 1959749225, 700325316, 1638050605, 1021608788, 1726691001, 1761127344,
                1552405120, 417318995, 36799261, 1215172152, 614923223, 1300746575, 957311597, 304856115,
            ],
    );

    // --- Packed Poseidon2 == scalar Poseidon2, lane by lane.
    let mut rng = crate::util::Rng::new(99);
    let lanes = P::WIDTH;
    let scalar_in: Vec<[F; 16]> =
        (0..lanes).map(|_| core::array::from_fn(|_| F::new(rng.babybear_u32()))).collect();
    let mut packed: [P; 16] = core::array::from_fn(|j| P::from_fn(|l| scalar_in[l][j]));
    perm.permute_mut(&mut packed);
    let mut ok = true;
    for (l, inp) in scalar_in.iter().enumerate() {
        let mut st = *inp;
        perm.permute_mut(&mut st);
        for j in 0..16 {
            ok &= packed[j].as_slice()[l] == st[j];
        }
    }
    check("poseidon2 packed==scalar", ok);

    // --- Merkle merkle-b root (width 2, 8 rows, values 0..15), cap height 0.
    let mmcs = p3bench::mmcs16();
    let m = RowMajorMatrix::new(bb(&(0..16).collect::<Vec<_>>()), 2);
    let (cap, _) = mmcs.commit_matrix(m);
    check(
        "merkle-b root",
        canon(&cap.roots()[0])
            == [705062308, 34599041, 1974200951, 1819003507, 1087624970, 1879346871, 1636428192, 1159593792],
    );

    // --- DFT vectors (natural order), every implementation.
    for imp in ["radix2_dit_parallel", "recursive", "small_batch"] {
        let m = RowMajorMatrix::new(bb(&[0, 1, 2, 3, 4, 5, 6, 7]), 1);
        check(
            &format!("dft-b {imp}"),
            p3bench::dft_natural_by_name(imp, "dft", m)
                == [28, 1976151680, 1139445628, 1710526337, 2013265917, 302739576, 873820285, 37114233],
        );
        let m = RowMajorMatrix::new(bb(&[1, 2, 3, 4]), 1);
        check(
            &format!("lde-a {imp}"),
            p3bench::dft_natural_by_name(imp, "coset_lde", m)
                == [812971946, 1583136595, 1200264158, 1514882761, 1200293019, 377777163, 813002729, 550735333],
        );
        let m = RowMajorMatrix::new(bb(&[1, 2, 3, 4]), 1);
        check(
            &format!("encode-b {imp}"),
            p3bench::dft_natural_by_name(imp, "encode", m)
                == [10, 1163775060, 569722814, 1607697706, 2013265919, 1153588336, 1443543103, 101470744],
        );
    }
    check("BabyBear::GENERATOR == 31", <F as p3_field::Field>::GENERATOR == F::new(p3bench::LDE_SHIFT));

    // --- Random 2^12 x 4 (and 2^14 x 1): all implementations agree, for each op.
    for (log_n, w) in [(12usize, 4usize), (14, 1)] {
        let input = p3bench::random_matrix(log_n, w, 4242);
        for op in p3bench::DFT_OPS {
            let a = p3bench::dft_natural_by_name("radix2_dit_parallel", op, input.clone());
            let b = p3bench::dft_natural_by_name("recursive", op, input.clone());
            let c = p3bench::dft_natural_by_name("small_batch", op, input.clone());
            check(&format!("{op} 2^{log_n}x{w} radix2==recursive"), a == b);
            check(&format!("{op} 2^{log_n}x{w} radix2==small_batch"), a == c);
        }
    }

    // --- Grind vector grind-b (observe [1,2,3], 10 bits -> smallest witness 313) in a 1-thread
    //     pool (serial order), then next sample; and the parallel grinder gives a valid witness.
    let (w1, next) = maybe_single(true, || {
        let mut c = DuplexChallenger::<F, _, 16, 8>::new(default_babybear_poseidon2_16());
        for x in [1u32, 2, 3] {
            c.observe(F::new(x));
        }
        let w = c.grind(10);
        let next: F = c.sample();
        (w.as_canonical_u32(), next.as_canonical_u32())
    });
    check("grind-b serial witness 313", w1 == 313);
    check("grind-b next_sample", next == 702196634);
    let mut c = p3bench::grind_challenger(12345);
    let mut v = c.clone();
    let w = c.grind(14);
    check("grind parallel witness valid", v.check_witness(14, w));

    // --- MSM: n = 16 against the naive sum; 2^12 all-threads == 1-thread == split sum.
    let data = msm::MsmData::new(12);
    let n16 = G1Projective::msm(&data.bases[..16], &data.scalars[..16]).unwrap();
    check("msm n=16 == naive", n16 == msm::naive_msm(&data.bases[..16], &data.scalars[..16]));
    let all = G1Projective::msm(&data.bases, &data.scalars).unwrap();
    let one = maybe_single(true, || G1Projective::msm(&data.bases, &data.scalars).unwrap());
    let h = data.bases.len() / 2;
    let split = G1Projective::msm(&data.bases[..h], &data.scalars[..h]).unwrap()
        + G1Projective::msm(&data.bases[h..], &data.scalars[h..]).unwrap();
    check("msm 2^12 all-threads == 1-thread", all == one);
    check("msm 2^12 == split sum", all == split);
    check("msm 2^12 nonzero", !ark_ff::Zero::is_zero(&all));

    let ok = failures.is_empty();
    let mut m = Map::new();
    m.insert("bench".into(), json!("selftest"));
    m.insert("ok".into(), json!(ok));
    m.insert("checks".into(), json!(checks));
    m.insert("failures".into(), json!(failures));
    emit_raw(m);
    ok
}
