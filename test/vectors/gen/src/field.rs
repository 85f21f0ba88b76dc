//! field.json: BabyBear base field and degree-4 extension arithmetic.

use p3_field::extension::BinomialExtensionField;
use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing, TwoAdicField};
use serde_json::{json, Value};

use crate::common::*;

type EF = BinomialExtensionField<F, 4>;

const R_MOD_P: u32 = 268435454; // 2^32 mod p (Montgomery one)
const TWO31_M1: u32 = 134217726; // (2^31 - 1) mod p

fn ef(c: &[u32]) -> EF {
    EF::from_basis_coefficients_slice(&to_field(c)).unwrap()
}

fn efu(x: EF) -> Vec<u32> {
    to_u32(x.as_basis_coefficients_slice())
}

pub fn generate() -> (Vec<(&'static str, Value)>, Vec<Value>) {
    let mut cases = vec![];
    let mut seeds = SeedCounter::new(1000);
    let pm1 = P - 1;

    // ---- constants ----
    let gens: Vec<u32> = (0..=27).map(|b| fu(F::two_adic_generator(b))).collect();
    cases.push(json!({"op": "two_adic_generators", "bits": "0..=27", "values": gens}));
    cases.push(json!({"op": "generator", "value": fu(F::GENERATOR)}));
    assert_eq!(fu(F::GENERATOR), 31);

    // ---- extension mul + inverse ----
    let edge = [0u32, 1, pm1, R_MOD_P, TWO31_M1];
    let mut pairs: Vec<(String, Vec<u32>, Vec<u32>, Option<u64>)> = vec![
        ("ext-a".into(), vec![1, 2, 3, 4], vec![5, 6, 7, 8], None),
        ("ext-b".into(), vec![0, 1, 0, 0], vec![0, 0, 0, 1], None),
        (
            "ext-c".into(),
            vec![2013265920, 2013265919, 123456789, 987654321],
            vec![42, 0, 7, 2013265916],
            None,
        ),
        ("x*x".into(), vec![0, 1, 0, 0], vec![0, 1, 0, 0], None),
        ("x2*x2".into(), vec![0, 0, 1, 0], vec![0, 0, 1, 0], None),
        ("x3*x3".into(), vec![0, 0, 0, 1], vec![0, 0, 0, 1], None),
    ];
    // Constant (base-field) edge elements times each other and times a random element.
    for (i, &a) in edge.iter().enumerate() {
        let b = edge[(i + 2) % edge.len()];
        pairs.push((
            format!("edge-const-{i}"),
            vec![a, 0, 0, 0],
            vec![b, 0, 0, 0],
            None,
        ));
    }
    for (i, &a) in edge.iter().enumerate() {
        let s = seeds.take();
        let r = seeded_u32(s, 4);
        pairs.push((format!("edge-splat-{i}-x-random"), vec![a; 4], r, Some(s)));
    }
    for (i, &a) in edge.iter().enumerate() {
        let b = edge[(i + 1) % edge.len()];
        pairs.push((
            format!("edge-mixed-{i}"),
            vec![a, b, a, b],
            vec![b, b, a, a],
            None,
        ));
    }
    pairs.push(("all-pm1".into(), vec![pm1; 4], vec![pm1; 4], None));
    pairs.push(("all-R".into(), vec![R_MOD_P; 4], vec![R_MOD_P; 4], None));
    pairs.push((
        "all-2^31-1".into(),
        vec![TWO31_M1; 4],
        vec![pm1, 1, pm1, 1],
        None,
    ));
    while pairs.len() < 42 {
        let s = seeds.take();
        let v = seeded_u32(s, 8);
        let id = format!("random-{}", pairs.len());
        pairs.push((id, v[..4].to_vec(), v[4..].to_vec(), Some(s)));
    }
    for (id, a, b, seed) in &pairs {
        let (x, y) = (ef(a), ef(b));
        let c = x * y;
        assert_eq!(c, y * x);
        let mut case = json!({"op": "ext_mul", "id": id, "a": a, "b": b, "c": efu(c)});
        if let Some(s) = seed {
            // The seed covers the random element(s): a||b for fully random pairs
            // (8 elements), or b alone (4 elements) for edge-splat pairs.
            let n = if id.starts_with("random") { 8 } else { 4 };
            case["input"] = json!({"seed": s, "values": seeded_u32(*s, n)});
        }
        cases.push(case);
    }
    // Inverses of every distinct nonzero extension element above.
    let mut seen = std::collections::BTreeSet::new();
    for (_, a, b, _) in &pairs {
        for v in [a, b] {
            if v.iter().all(|&x| x == 0) || !seen.insert(v.clone()) {
                continue;
            }
            let x = ef(v);
            let inv = x.inverse();
            assert_eq!(x * inv, EF::ONE);
            cases.push(json!({"op": "ext_inv", "a": v, "inv": efu(inv)}));
        }
    }
    cases.push(json!({"op": "ext_inv", "a": [0, 0, 0, 0], "inv": null,
        "note": "zero has no inverse (try_inverse returns None)"}));
    assert!(ef(&[0, 0, 0, 0]).try_inverse().is_none());

    // ---- base field: inverse, x^7, and a few mul/add/sub ----
    let mut base: Vec<u32> = vec![
        0,
        1,
        2,
        3,
        7,
        11,
        31,
        pm1,
        P - 2,
        (P - 1) / 2,
        (P + 1) / 2,
        R_MOD_P,
        TWO31_M1,
        1 << 27,
        1 << 30,
        1172168163,
        943718400,
        440564289,
        1728404513,
    ];
    let s = seeds.take();
    base.extend(seeded_u32(s, 40 - base.len()));
    let base_seed_note = json!({"seed": s, "note": "values after the fixed edge values come from this seed, in order"});
    for &x in &base {
        let f = F::new(x);
        let inv = f.try_inverse().map(fu);
        let p7 = f.exp_u64(7);
        assert_eq!(p7, f.exp_const_u64::<7>());
        if let Some(i) = inv {
            assert_eq!(f * F::new(i), F::ONE);
        }
        cases.push(json!({"op": "base", "x": x, "inv": inv, "pow7": fu(p7)}));
    }
    for (i, w) in base.windows(2).enumerate().step_by(4) {
        let (a, b) = (F::new(w[0]), F::new(w[1]));
        cases.push(
            json!({"op": "base_arith", "id": format!("arith-{i}"), "a": w[0], "b": w[1],
            "mul": fu(a * b), "add": fu(a + b), "sub": fu(a - b)}),
        );
    }

    let extra = vec![
        (
            "field",
            json!("BabyBear p = 2013265921; ext = BinomialExtensionField<BabyBear,4>, X^4 = 11"),
        ),
        ("base_values_seed", base_seed_note),
    ];
    (extra, cases)
}
