//! msm_arkworks.json: BN254 G1 multi-scalar multiplication via arkworks VariableBaseMSM::msm.

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{BigInteger, PrimeField, Zero};
use serde_json::{json, Value};

use crate::common::SplitMix64;

/// A scalar: 4 successive next() as u64 limbs, little-endian, reduced mod r.
fn next_scalar(g: &mut SplitMix64) -> Fr {
    let mut bytes = [0u8; 32];
    for i in 0..4 {
        bytes[8 * i..8 * i + 8].copy_from_slice(&g.next_u64().to_le_bytes());
    }
    Fr::from_le_bytes_mod_order(&bytes)
}

fn hex(s: &Fr) -> String {
    let be = s.into_bigint().to_bytes_be();
    let h: String = be.iter().map(|b| format!("{b:02x}")).collect();
    format!("0x{h}")
}

fn point(p: &G1Affine) -> Value {
    if p.is_zero() {
        return json!({"x": "0", "y": "0"});
    }
    assert!(p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve());
    json!({"x": p.x.into_bigint().to_string(), "y": p.y.into_bigint().to_string()})
}

fn msm_case(id: &str, input: Value, bases: &[G1Affine], scalars: &[Fr]) -> Value {
    assert_eq!(bases.len(), scalars.len());
    let r = G1Projective::msm(bases, scalars).expect("msm length mismatch");
    // Cross-check with a naive sum.
    let naive: G1Projective = bases.iter().zip(scalars).map(|(b, s)| *b * s).sum();
    assert_eq!(r, naive, "{id}: msm != naive sum");
    let ra = r.into_affine();
    json!({
        "op": "msm", "id": id, "n": bases.len(), "input": input,
        "points": bases.iter().map(point).collect::<Vec<_>>(),
        "scalars": scalars.iter().map(hex).collect::<Vec<_>>(),
        "result": point(&ra),
    })
}

/// Seeded instance: point discrete logs k_0..k_{n-1}, then msm scalars e_0..e_{n-1},
/// all drawn in that order from one SplitMix64 with the given seed.
fn seeded(seed: u64, n: usize) -> (Vec<Fr>, Vec<G1Affine>, Vec<Fr>) {
    let mut g = SplitMix64::new(seed);
    let ks: Vec<Fr> = (0..n).map(|_| next_scalar(&mut g)).collect();
    let es: Vec<Fr> = (0..n).map(|_| next_scalar(&mut g)).collect();
    let gen = G1Affine::generator();
    let proj: Vec<G1Projective> = ks.iter().map(|k| gen * k).collect();
    let pts = G1Projective::normalize_batch(&proj);
    (ks, pts, es)
}

fn seeded_input(seed: u64, ks: &[Fr], note: Option<&str>) -> Value {
    let mut v = json!({"seed": seed, "point_dlogs": ks.iter().map(hex).collect::<Vec<_>>()});
    if let Some(n) = note {
        v["edit"] = json!(n);
    }
    v
}

pub fn generate() -> (Vec<(&'static str, Value)>, Vec<Value>) {
    let mut cases = vec![];
    let mut seed = 8000u64;
    let mut take = || {
        let s = seed;
        seed += 1;
        s
    };

    for &n in &[1usize, 2, 3, 7, 64, 255, 1000] {
        let s = take();
        let (ks, pts, es) = seeded(s, n);
        cases.push(msm_case(
            &format!("seeded-n{n}"),
            seeded_input(s, &ks, None),
            &pts,
            &es,
        ));
    }

    let r_minus_1 = -Fr::from(1u64);
    let id = G1Affine::zero();

    let s = take();
    let (ks, pts, mut es) = seeded(s, 5);
    es[2] = Fr::zero();
    cases.push(msm_case(
        "zero-scalar",
        seeded_input(s, &ks, Some("scalars[2] = 0")),
        &pts,
        &es,
    ));

    let s = take();
    let (ks, pts, _) = seeded(s, 3);
    cases.push(msm_case(
        "all-zero-scalars",
        seeded_input(s, &ks, Some("all scalars = 0")),
        &pts,
        &[Fr::zero(); 3],
    ));

    let s = take();
    let (ks, pts, _) = seeded(s, 1);
    cases.push(msm_case(
        "scalar-r-1",
        seeded_input(s, &ks, Some("scalars[0] = r-1")),
        &pts,
        &[r_minus_1],
    ));

    let s = take();
    let (ks, pts, mut es) = seeded(s, 3);
    es[1] = r_minus_1;
    cases.push(msm_case(
        "scalar-r-1-mixed",
        seeded_input(s, &ks, Some("scalars[1] = r-1")),
        &pts,
        &es,
    ));

    let s = take();
    let (ks, mut pts, es) = seeded(s, 4);
    pts[1] = id;
    cases.push(msm_case(
        "identity-point",
        seeded_input(s, &ks, Some("points[1] = identity")),
        &pts,
        &es,
    ));

    let s = take();
    let (ks, _, es) = seeded(s, 1);
    cases.push(msm_case(
        "only-identity",
        seeded_input(s, &ks, Some("points[0] = identity")),
        &[id],
        &es,
    ));

    let s = take();
    let (ks, pts, es) = seeded(s, 4);
    let rep = vec![pts[0], pts[0], pts[1], pts[0]];
    cases.push(msm_case(
        "repeated-point",
        seeded_input(s, &ks, Some("points = [P0, P0, P1, P0]")),
        &rep,
        &es,
    ));

    let s = take();
    let (ks, pts, es) = seeded(s, 2);
    let pm = vec![pts[0], -pts[0]];
    cases.push(msm_case(
        "p-and-neg-p-same-scalar",
        seeded_input(s, &ks, Some("points = [P0, -P0], scalars = [e0, e0]")),
        &pm,
        &[es[0], es[0]],
    ));
    cases.push(msm_case(
        "p-and-neg-p",
        seeded_input(s, &ks, Some("points = [P0, -P0]")),
        &pm,
        &es,
    ));

    let gen = G1Affine::generator();
    cases.push(msm_case(
        "generator-small-scalars",
        json!({"note": "points = [G, G, 2G], scalars = [1, 2, 3]"}),
        &[gen, gen, (gen + gen).into_affine()],
        &[Fr::from(1u64), Fr::from(2u64), Fr::from(3u64)],
    ));
    cases.push(msm_case(
        "generator-r-1",
        json!({"note": "points = [G], scalars = [r-1]; result = -G"}),
        &[gen],
        &[r_minus_1],
    ));

    let extra = vec![
        ("arkworks", json!("ark-bn254 0.5.0, ark-ec 0.5.0, ark-ff 0.5.0")),
        ("curve", json!("BN254 G1 (y^2 = x^3 + 3 over Fq), generator (1, 2); r = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001")),
        ("encoding", json!("points affine with decimal x, y strings (identity = x \"0\", y \"0\"); scalars 0x + 64 hex digits, big-endian, canonical in [0, r)")),
        ("seeded_inputs", json!("SplitMix64(seed): first n scalars k_i (points[i] = [k_i]G, listed as input.point_dlogs), then n msm scalars e_i; each scalar = 4 successive next() as u64 limbs little-endian, the 256-bit integer reduced mod r. Edge cases then edit the seeded instance as input.edit says; all values are stored explicitly anyway")),
    ];
    (extra, cases)
}
