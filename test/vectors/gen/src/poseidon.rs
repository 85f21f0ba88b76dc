//! poseidon2.json and sponge.json.

use p3_baby_bear::{
    default_babybear_poseidon2_16, default_babybear_poseidon2_24, Poseidon2BabyBear,
    BABYBEAR_POSEIDON2_RC_16_EXTERNAL_FINAL, BABYBEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
    BABYBEAR_POSEIDON2_RC_16_INTERNAL, BABYBEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
    BABYBEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL, BABYBEAR_POSEIDON2_RC_24_INTERNAL,
};
use p3_poseidon2::{poseidon2_round_numbers_128, ExternalLayerConstants};
use p3_symmetric::{
    CryptographicHasher, PaddingFreeSponge, Permutation, PseudoCompressionFunction,
    TruncatedPermutation,
};
use rand::distr::StandardUniform;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoroshiro128Plus;
use serde_json::{json, Value};

use crate::common::*;

pub type Perm16 = Poseidon2BabyBear<16>;
pub type Sponge = PaddingFreeSponge<Perm16, 16, 8, 8>;
pub type Compress = TruncatedPermutation<Perm16, 2, 8, 16>;

pub fn sponge() -> Sponge {
    PaddingFreeSponge::new(default_babybear_poseidon2_16())
}

pub fn compress() -> Compress {
    TruncatedPermutation::new(default_babybear_poseidon2_16())
}

fn rows_u32<const W: usize>(a: &[[F; W]]) -> Vec<Vec<u32>> {
    a.iter().map(|r| to_u32(r)).collect()
}

fn constants_case<const W: usize>(
    set: &str,
    init: &[[F; W]],
    term: &[[F; W]],
    internal: &[F],
    how: &str,
) -> Value {
    json!({
        "kind": "constants", "set": set, "width": W, "how": how,
        "rounds_f": init.len() + term.len(), "rounds_p": internal.len(),
        "external_initial": rows_u32(init),
        "external_terminal": rows_u32(term),
        "internal": to_u32(internal),
    })
}

fn perm_case<const W: usize, P: Permutation<[F; W]>>(
    perm: &P,
    set: &str,
    id: &str,
    input: Value,
    state: &[u32],
) -> Value {
    let mut s: [F; W] = to_field(state).try_into().unwrap();
    perm.permute_mut(&mut s);
    json!({"kind": "perm", "set": set, "width": W, "id": id, "input": input, "output": to_u32(&s)})
}

/// The standard set of ~10 input states for width W.
fn states<const W: usize>(seeds: &mut SeedCounter) -> Vec<(String, Value, Vec<u32>)> {
    let mut v: Vec<(String, Value, Vec<u32>)> = vec![];
    let mut push = |id: &str, s: Vec<u32>| v.push((id.to_string(), json!({"values": s}), s));
    push("zero", vec![0; W]);
    push("iota", (0..W as u32).collect());
    push("all-pm1", vec![P - 1; W]);
    push("all-one", vec![1; W]);
    push("all-R", vec![268435454; W]);
    let mut e0 = vec![0; W];
    e0[0] = 1;
    push("e0", e0);
    let mut elast = vec![0; W];
    elast[W - 1] = 1;
    push("e-last", elast);
    for i in 0..4 {
        let s = seeds.take();
        let vals = seeded_u32(s, W);
        v.push((
            format!("random-{i}"),
            json!({"seed": s, "values": vals}),
            vals,
        ));
    }
    v
}

/// Builds Poseidon2BabyBear<W> with `new_from_rng_128(&mut Xoroshiro128Plus::seed_from_u64(seed))`
/// and returns it together with the constants it drew (re-drawn from an identical RNG in the
/// same order that `Poseidon2::new_from_rng` uses: 4 initial rows, 4 terminal rows, then the
/// internal constants). The dump is checked by rebuilding the permutation from it.
macro_rules! rng_perm {
    ($name:ident, $w:literal) => {
        fn $name(seed: u64) -> (Poseidon2BabyBear<$w>, Vec<[F; $w]>, Vec<[F; $w]>, Vec<F>) {
            let perm = Poseidon2BabyBear::<$w>::new_from_rng_128(
                &mut Xoroshiro128Plus::seed_from_u64(seed),
            );
            let (rounds_f, rounds_p) = poseidon2_round_numbers_128::<F>($w, 7).unwrap();
            let mut rng = Xoroshiro128Plus::seed_from_u64(seed);
            let ext = ExternalLayerConstants::<F, $w>::new_from_rng(rounds_f, &mut rng);
            let internal: Vec<F> = (&mut rng)
                .sample_iter(StandardUniform)
                .take(rounds_p)
                .collect();
            let init = ext.get_initial_constants().to_vec();
            let term = ext.get_terminal_constants().to_vec();
            let rebuilt = Poseidon2BabyBear::<$w>::new(
                ExternalLayerConstants::new(init.clone(), term.clone()),
                internal.clone(),
            );
            let mut g = SplitMix64::new(0xC0FFEE);
            for _ in 0..8 {
                let s: [F; $w] = core::array::from_fn(|_| F::new(g.next_u32_field()));
                assert_eq!(
                    perm.permute(s),
                    rebuilt.permute(s),
                    "rng constants dump mismatch"
                );
            }
            (perm, init, term, internal)
        }
    };
}
rng_perm!(rng_perm16, 16);
rng_perm!(rng_perm24, 24);

pub fn generate_poseidon2() -> (Vec<(&'static str, Value)>, Vec<Value>) {
    let mut cases = vec![];
    let mut seeds = SeedCounter::new(3000);
    let p16 = default_babybear_poseidon2_16();
    let p24 = default_babybear_poseidon2_24();

    cases.push(constants_case::<16>(
        "default",
        &BABYBEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
        &BABYBEAR_POSEIDON2_RC_16_EXTERNAL_FINAL,
        &BABYBEAR_POSEIDON2_RC_16_INTERNAL,
        "p3_baby_bear::default_babybear_poseidon2_16() (BABYBEAR_POSEIDON2_RC_16_*)",
    ));
    cases.push(constants_case::<24>(
        "default",
        &BABYBEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL,
        &BABYBEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
        &BABYBEAR_POSEIDON2_RC_24_INTERNAL,
        "p3_baby_bear::default_babybear_poseidon2_24() (BABYBEAR_POSEIDON2_RC_24_*)",
    ));

    // Known answers: plonky3.md section 7 and the crate's own test.
    let kat16: [(&str, Vec<u32>, Vec<u32>); 4] = [
        (
            "perm16-a",
            (0..16).collect(),
            vec![
                1906786279, 1737026427, 1959749225, 700325316, 1638050605, 1021608788, 1726691001,
                1761127344, 1552405120, 417318995, 36799261, 1215172152, 614923223, 1300746575,
                957311597, 304856115,
            ],
        ),
        (
            "perm16-b",
            vec![0; 16],
            vec![
                1168947398, 128782440, 747404447, 883925857, 360581875, 1704698758, 1878363991,
                1054281681, 682225194, 705839125, 1218819873, 41544645, 1095344608, 174996601,
                1678438226, 11259290,
            ],
        ),
        (
            "perm16-c",
            vec![P - 1; 16],
            vec![
                1233564084, 138281517, 1431982993, 585402190, 417047365, 1462994434, 584596381,
                883853858, 1957702061, 1422117949, 1077349319, 355468137, 1629297269, 17043753,
                1065643784, 679123220,
            ],
        ),
        (
            "crate-test_default_babybear_poseidon2_width_16",
            vec![
                894848333, 1437655012, 1200606629, 1690012884, 71131202, 1749206695, 1717947831,
                120589055, 19776022, 42382981, 1831865506, 724844064, 171220207, 1299207443,
                227047920, 1783754913,
            ],
            vec![
                516096821, 90309867, 1101817252, 1660784290, 360715097, 1789519026, 1788910906,
                563338433, 319524748, 1741414159, 1650859320, 894311162, 1121347488, 1692793758,
                1052633829, 1344246938,
            ],
        ),
    ];
    for (id, input, expect) in kat16 {
        let c = perm_case::<16, _>(&p16, "default", id, json!({"values": input}), &input);
        assert_eq!(c["output"], json!(expect), "{id} differs from plonky3.md");
        cases.push(c);
    }
    let kat24: [(&str, Vec<u32>, Vec<u32>); 3] = [
        (
            "perm24-a",
            (0..24).collect(),
            vec![
                57973606, 1742549659, 409441332, 409968379, 1588522739, 1235046754, 142170282,
                1876178281, 428001087, 602964561, 1634659810, 1459495659, 1386997552, 559996597,
                1579968629, 971061809, 169813032, 163759111, 57819583, 648482598, 838234366,
                112505394, 245852421, 766005377,
            ],
        ),
        (
            "perm24-b",
            vec![0; 24],
            vec![
                400117224, 993058517, 1143686568, 167077231, 512027304, 1699297555, 73036051,
                384892923, 1638785080, 1986004076, 962251114, 1342022841, 237647043, 599501300,
                1325347421, 758164838, 909746918, 1857572136, 456675026, 284439419, 1688929831,
                43577996, 781522191, 999813579,
            ],
        ),
        (
            "perm24-c",
            vec![P - 1; 24],
            vec![
                1960388129, 1550017017, 1591599178, 103681785, 1802503176, 771077244, 50742312,
                1174185041, 1270883590, 1275345963, 786813285, 395198749, 898985382, 866202146,
                332194205, 225601169, 1113932480, 1490290759, 875466096, 1970304322, 176155341,
                171257807, 1508447611, 790933733,
            ],
        ),
    ];
    for (id, input, expect) in kat24 {
        let c = perm_case::<24, _>(&p24, "default", id, json!({"values": input}), &input);
        assert_eq!(c["output"], json!(expect), "{id} differs from plonky3.md");
        cases.push(c);
    }

    for (id, input, s) in states::<16>(&mut seeds) {
        cases.push(perm_case::<16, _>(&p16, "default", &id, input, &s));
    }
    for (id, input, s) in states::<24>(&mut seeds) {
        cases.push(perm_case::<24, _>(&p24, "default", &id, input, &s));
    }

    // Seeded-RNG constant sets (the crate's own tests use Xoroshiro128Plus::seed_from_u64(1)).
    let set = "xoroshiro128plus-seed1";
    let how = "Poseidon2BabyBear::<W>::new_from_rng_128(&mut rand_xoshiro::Xoroshiro128Plus::seed_from_u64(1)) (rand 0.10 / rand_xoshiro 0.8.1)";
    let (r16, i16, t16, n16) = rng_perm16(1);
    cases.push(constants_case::<16>(set, &i16, &t16, &n16, how));
    let (r24, i24, t24, n24) = rng_perm24(1);
    cases.push(constants_case::<24>(set, &i24, &t24, &n24, how));
    // Known answers from p3-baby-bear's test_poseidon2_width_16_random / _24_random.
    let c = perm_case::<16, _>(
        &r16,
        set,
        "crate-test_poseidon2_width_16_random",
        json!({"values": [894848333,1437655012,1200606629,1690012884,71131202,1749206695,1717947831,120589055,19776022,42382981,1831865506,724844064,171220207,1299207443,227047920,1783754913]}),
        &[
            894848333, 1437655012, 1200606629, 1690012884, 71131202, 1749206695, 1717947831,
            120589055, 19776022, 42382981, 1831865506, 724844064, 171220207, 1299207443, 227047920,
            1783754913,
        ],
    );
    assert_eq!(
        c["output"],
        json!([
            1255099308, 941729227, 93609187, 112406640, 492658670, 1824768948, 812517469,
            1055381989, 670973674, 1407235524, 891397172, 1003245378, 1381303998, 1564172645,
            1399931635, 1005462965
        ])
    );
    cases.push(c);
    let in24 = [
        886409618u32,
        1327899896,
        1902407911,
        591953491,
        648428576,
        1844789031,
        1198336108,
        355597330,
        1799586834,
        59617783,
        790334801,
        1968791836,
        559272107,
        31054313,
        1042221543,
        474748436,
        135686258,
        263665994,
        1962340735,
        1741539604,
        449439011,
        1131357108,
        50869465,
        1589724894,
    ];
    let c = perm_case::<24, _>(
        &r24,
        set,
        "crate-test_poseidon2_width_24_random",
        json!({"values": in24}),
        &in24,
    );
    assert_eq!(
        c["output"],
        json!([
            249424342, 562262148, 757431114, 354243402, 57767055, 976981973, 1393169022,
            1774550827, 1527742125, 1019514605, 1776327602, 266236737, 1412355182, 1070239213,
            426390978, 1775539440, 1527732214, 1101406020, 1417710778, 1699632661, 413672313,
            820348291, 1067197851, 1669055675
        ])
    );
    cases.push(c);
    for (id, input, s) in states::<16>(&mut seeds).into_iter().take(5) {
        cases.push(perm_case::<16, _>(&r16, set, &id, input, &s));
    }
    for (id, input, s) in states::<24>(&mut seeds).into_iter().take(5) {
        cases.push(perm_case::<24, _>(&r24, set, &id, input, &s));
    }

    let extra = vec![
        ("sets", json!({
            "default": "default_babybear_poseidon2_16/24 (Grain-LFSR constants, the production set)",
            set: how,
        })),
        ("layout", json!("permutation: initial M_E; 4 rounds with external_initial; rounds_p partial rounds with internal; 4 rounds with external_terminal (see plonky3.md section 2)")),
    ];
    (extra, cases)
}

pub fn generate_sponge() -> (Vec<(&'static str, Value)>, Vec<Value>) {
    let mut cases = vec![];
    let mut seeds = SeedCounter::new(4000);
    let h = sponge();
    let c = compress();
    let hash = |row: &[u32]| -> Vec<u32> { to_u32(&h.hash_slice(&to_field(row))) };

    // Known answers from plonky3.md section 7.
    let kat: [(&str, Vec<Vec<u32>>, Vec<Vec<u32>>); 4] = [
        (
            "hash-a",
            vec![vec![1, 2, 3]],
            vec![vec![
                1853296131, 1171456729, 507627198, 1963590313, 1359599118, 87974953, 191588556,
                280581499,
            ]],
        ),
        (
            "hash-b",
            vec![(0..8).collect()],
            vec![vec![
                458038305, 257183205, 1951318676, 729287742, 1357995677, 631765864, 502434224,
                1170329282,
            ]],
        ),
        (
            "hash-c",
            vec![(0..9).collect()],
            vec![vec![
                676812573, 1270559507, 381485534, 1698063116, 133058718, 707903278, 665192678,
                1007467608,
            ]],
        ),
        (
            "hash-extra",
            vec![vec![], vec![0], (0..16).collect(), (0..17).collect()],
            vec![
                vec![0; 8],
                vec![
                    1168947398, 128782440, 747404447, 883925857, 360581875, 1704698758, 1878363991,
                    1054281681,
                ],
                vec![
                    568621648, 260560799, 1787535874, 764831861, 341748543, 546488453, 1028837269,
                    1917944385,
                ],
                vec![
                    1974045815, 196820718, 1073353574, 87259145, 297839827, 1251432516, 1044535156,
                    1062713680,
                ],
            ],
        ),
    ];
    for (id, rows, expect) in kat {
        let digests: Vec<Vec<u32>> = rows.iter().map(|r| hash(r)).collect();
        assert_eq!(digests, expect, "{id} differs from plonky3.md");
        cases.push(
            json!({"op": "hash_rows", "id": id, "input": {"rows": rows}, "digests": digests}),
        );
    }

    for &w in &[0usize, 1, 7, 8, 9, 16, 17, 100] {
        let n_rows = 4;
        let s = seeds.take();
        let vals = seeded_u32(s, n_rows * w);
        let digests: Vec<Vec<u32>> = (0..n_rows)
            .map(|r| hash(&vals[r * w..(r + 1) * w]))
            .collect();
        cases.push(json!({"op": "hash_rows", "width": w, "input": seeded_input(s, n_rows, w), "digests": digests}));
    }

    // Compression of digest pairs.
    let mut compress_case = |id: String, l: Vec<u32>, r: Vec<u32>, input: Value| {
        let out = c.compress([
            to_field(&l).try_into().unwrap(),
            to_field(&r).try_into().unwrap(),
        ]);
        // TruncatedPermutation = Perm16(l || r)[0..8]
        let mut st: [F; 16] = to_field(&[l.clone(), r.clone()].concat())
            .try_into()
            .unwrap();
        default_babybear_poseidon2_16().permute_mut(&mut st);
        assert_eq!(out[..], st[..8]);
        cases.push(json!({"op": "compress", "id": id, "input": input, "left": l, "right": r, "output": to_u32(&out)}));
    };
    compress_case("zero-zero".into(), vec![0; 8], vec![0; 8], json!(null));
    compress_case(
        "iota".into(),
        (0..8).collect(),
        (8..16).collect(),
        json!(null),
    );
    let ha = hash(&[1, 2, 3]);
    let hb = hash(&(0..8).collect::<Vec<_>>());
    compress_case("hash-a|hash-b".into(), ha, hb, json!(null));
    for i in 0..5 {
        let s = seeds.take();
        let v = seeded_u32(s, 16);
        compress_case(
            format!("random-{i}"),
            v[..8].to_vec(),
            v[8..].to_vec(),
            json!({"seed": s, "values": v}),
        );
    }

    let extra = vec![
        ("hasher", json!("PaddingFreeSponge<Poseidon2BabyBear<16>, 16, 8, 8> over default_babybear_poseidon2_16(); each row hashed on its own")),
        ("compressor", json!("TruncatedPermutation<Poseidon2BabyBear<16>, 2, 8, 16>: Perm16(left || right)[0..8]")),
    ];
    (extra, cases)
}
