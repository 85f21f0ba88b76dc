//! challenger.json: DuplexChallenger<BabyBear, Perm16, 16, 8> scripts and proof-of-work grinding.

use p3_baby_bear::default_babybear_poseidon2_16;
use p3_challenger::{CanObserve, CanSample, CanSampleBits, DuplexChallenger, GrindingChallenger};
use p3_field::extension::BinomialExtensionField;
use p3_field::BasedVectorSpace;
use serde_json::{json, Value};

use crate::common::*;
use crate::poseidon::Perm16;

type EF = BinomialExtensionField<F, 4>;
type Chal = DuplexChallenger<F, Perm16, 16, 8>;

fn new_chal() -> Chal {
    DuplexChallenger::new(default_babybear_poseidon2_16())
}

/// Runs a script; each step is one of {"observe": [..]}, {"sample": n}, {"sample_bits": b},
/// {"sample_ext": n}. Returns one result per step (null for observe).
fn run_script(ch: &mut Chal, script: &[Value]) -> Vec<Value> {
    let mut out = vec![];
    for step in script {
        let (k, v) = step.as_object().unwrap().iter().next().unwrap();
        match k.as_str() {
            "observe" => {
                for x in v.as_array().unwrap() {
                    ch.observe(F::new(x.as_u64().unwrap() as u32));
                }
                out.push(Value::Null);
            }
            "sample" => {
                let n = v.as_u64().unwrap();
                let s: Vec<u32> = (0..n).map(|_| fu(CanSample::<F>::sample(ch))).collect();
                out.push(json!(s));
            }
            "sample_bits" => out.push(json!(ch.sample_bits(v.as_u64().unwrap() as usize))),
            "sample_ext" => {
                let n = v.as_u64().unwrap();
                let s: Vec<Vec<u32>> = (0..n)
                    .map(|_| {
                        let e: EF = ch.sample();
                        to_u32(e.as_basis_coefficients_slice())
                    })
                    .collect();
                out.push(json!(s));
            }
            _ => panic!("unknown step {k}"),
        }
    }
    out
}

fn chal_after(observe: &[u32]) -> Chal {
    let mut ch = new_chal();
    for &x in observe {
        ch.observe(F::new(x));
    }
    ch
}

/// grind (serial build: smallest witness), double-checked by brute force.
fn grind_case(id: Option<&str>, observe: &[u32], seed: Option<u64>, bits: usize) -> (Value, u32) {
    let mut ch = chal_after(observe);
    let w = fu(ch.grind(bits));
    let next_sample = fu(CanSample::<F>::sample(&mut ch));
    // check_witness accepts it and continues identically.
    let mut ch2 = chal_after(observe);
    assert!(ch2.check_witness(bits, F::new(w)));
    assert_eq!(fu(CanSample::<F>::sample(&mut ch2)), next_sample);
    // No smaller witness passes.
    let base = chal_after(observe);
    for v in 0..w {
        assert!(
            !base.clone().check_witness(bits, F::new(v)),
            "grind did not return the smallest witness"
        );
    }
    let mut input = json!({"values": observe});
    if let Some(s) = seed {
        input = json!({"seed": s, "values": observe});
    }
    let mut c = json!({"op": "grind"});
    if let Some(id) = id {
        c["id"] = json!(id);
    }
    c["observe"] = input;
    c["bits"] = json!(bits);
    c["witness"] = json!(w);
    c["next_sample"] = json!(next_sample);
    (c, w)
}

fn check_case(id: &str, observe: &[u32], bits: usize, witness: u32) -> Value {
    let mut ch = chal_after(observe);
    let valid = ch.check_witness(bits, F::new(witness));
    json!({"op": "check_witness", "id": id, "observe": {"values": observe}, "bits": bits,
           "witness": witness, "valid": valid})
}

pub fn generate() -> (Vec<(&'static str, Value)>, Vec<Value>) {
    let mut cases = vec![];
    let mut seeds = SeedCounter::new(7000);

    // ---- scripts ----
    let mut scripts: Vec<(String, Vec<Value>, Option<Vec<Value>>)> = vec![
        (
            "chal-a".into(),
            vec![
                json!({"observe": [1, 2, 3]}),
                json!({"sample": 3}),
                json!({"sample_bits": 5}),
                json!({"sample_ext": 1}),
            ],
            Some(vec![
                Value::Null,
                json!([1567517663, 1698101670, 1443374956]),
                json!(29),
                json!([[516069059, 650988603, 334775474, 1350561476]]),
            ]),
        ),
        (
            "chal-b".into(),
            vec![
                json!({"sample": 1}),
                json!({"observe": [0,1,2,3,4,5,6,7]}),
                json!({"sample": 1}),
                json!({"observe": [0,1,2,3,4,5,6,7,8,9]}),
                json!({"sample": 9}),
            ],
            Some(vec![
                json!([1054281681]),
                Value::Null,
                json!([743591986]),
                Value::Null,
                json!([
                    1293416182, 775667352, 130178825, 625874010, 1513267389, 1587758845, 61380070,
                    316344680, 1265350738
                ]),
            ]),
        ),
        ("empty-sample-17".into(), vec![json!({"sample": 17})], None),
        (
            "observe-after-partial-sample".into(),
            vec![
                json!({"observe": [5]}),
                json!({"sample": 2}),
                json!({"observe": [6, 7]}),
                json!({"sample": 8}),
                json!({"sample": 1}),
                json!({"observe": [P - 1]}),
                json!({"sample_ext": 3}),
            ],
            None,
        ),
    ];
    for i in 0..4 {
        let s = seeds.take();
        let v = seeded_u32(s, 30);
        scripts.push((
            format!("seeded-{i}-seed{s}"),
            vec![
                json!({"observe": &v[..(3 + 5 * i)]}),
                json!({"sample_ext": 2}),
                json!({"sample_bits": 1 + 7 * i}),
                json!({"observe": &v[(3 + 5 * i)..]}),
                json!({"sample": 5}),
                json!({"sample_bits": 30}),
                json!({"sample_ext": 1}),
                json!({"sample": 12}),
            ],
            None,
        ));
    }
    for (id, script, expect) in scripts {
        let mut ch = new_chal();
        let results = run_script(&mut ch, &script);
        if let Some(e) = expect {
            assert_eq!(results, e, "{id} differs from plonky3.md");
        }
        cases.push(json!({"op": "challenger", "id": id, "script": script, "results": results}));
    }

    // ---- grind: known answers ----
    for (id, obs, bits, w, ns) in [
        ("grind-a", vec![], 8usize, 541u32, 1082898524u32),
        ("grind-b", vec![1, 2, 3], 10, 313, 702196634),
        ("grind-c", (0..9).collect::<Vec<u32>>(), 12, 903, 1481963154),
    ] {
        let (c, got) = grind_case(Some(id), &obs, None, bits);
        assert_eq!(got, w, "{id} witness differs from plonky3.md");
        assert_eq!(c["next_sample"], json!(ns), "{id} next_sample differs");
        cases.push(c);
    }
    // ---- grind sweep ----
    let mut smallest = vec![];
    for &n in &[0usize, 1, 3, 7, 8, 9, 15] {
        let s = seeds.take();
        let obs = seeded_u32(s, n);
        for bits in 1..=12usize {
            let (c, w) = grind_case(None, &obs, Some(s), bits);
            smallest.push((obs.clone(), bits, w));
            cases.push(c);
        }
    }

    // ---- check_witness ----
    let chk = check_case("gcheck-a", &[1, 2, 3], 10, 0);
    assert_eq!(chk["valid"], json!(false));
    cases.push(chk);
    cases.push(check_case("gcheck-b-valid", &[1, 2, 3], 10, 313));
    cases.push(check_case("bits0-always-true", &[1, 2, 3], 0, 12345));
    for (i, (obs, bits, w)) in smallest.iter().enumerate().filter(|(i, _)| i % 11 == 3) {
        let (obs, bits, w) = (obs, *bits, *w);
        if w > 0 {
            let c = check_case(&format!("false-{i}-w-1"), obs, bits, w - 1);
            assert_eq!(c["valid"], json!(false));
            cases.push(c);
        }
        let c = check_case(&format!("false-{i}-w+p/2"), obs, bits, (w + P / 2) % P);
        cases.push(c);
        let c = check_case(&format!("true-{i}"), obs, bits, w);
        assert_eq!(c["valid"], json!(true));
        cases.push(c);
    }

    let extra = vec![
        ("challenger", json!("DuplexChallenger<BabyBear, Poseidon2BabyBear<16> (default_babybear_poseidon2_16), 16, 8>")),
        ("notes", json!("grind: challenger observes `observe.values` then grind(bits); witness is the smallest valid one (serial build, brute-force checked); next_sample = sample() right after grind. sample_bits(b) = canonical(sample()) & (2^b-1); sample_ext = 4 base samples c0..c3 of BinomialExtensionField<BabyBear,4>.")),
    ];
    (extra, cases)
}
