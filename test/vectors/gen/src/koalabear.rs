//! koalabear.json: p3-koala-bear's field (constants, base and degree-4 extension arithmetic),
//! Poseidon2 (default constants and permutations at widths 16 and 24) and DFTs (Radix2Dit),
//! for the KoalaBear parameter record, CPU twins and GPU checks of webgpu-prover.
//! Inputs are explicit (every value in the file); seeds feed this file's own SplitMix64 draws
//! reduced mod the KoalaBear prime.

use p3_dft::{Radix2Dit, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_field::extension::BinomialExtensionField;
use p3_field::{BasedVectorSpace, Field, PrimeCharacteristicRing, PrimeField32, TwoAdicField};
use p3_koala_bear::{
    default_koalabear_poseidon2_16, default_koalabear_poseidon2_24, KoalaBear,
    KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL, KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL,
    KOALABEAR_POSEIDON2_RC_16_INTERNAL, KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL,
    KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL, KOALABEAR_POSEIDON2_RC_24_INTERNAL,
};
use p3_matrix::dense::RowMajorMatrix;
use p3_matrix::Matrix;
use p3_symmetric::Permutation;
use serde_json::{json, Value};

use crate::common::{output_matrix, SeedCounter, SplitMix64};

type K = KoalaBear;
type EK = BinomialExtensionField<K, 4>;
const KP: u32 = 0x7f00_0001;

fn k(x: u32) -> K {
    assert!(x < KP);
    K::new(x)
}
fn ku(x: K) -> u32 {
    x.as_canonical_u32()
}
fn kvec(v: &[u32]) -> Vec<K> {
    v.iter().map(|&x| k(x)).collect()
}
fn kuvec(v: &[K]) -> Vec<u32> {
    v.iter().map(|&x| ku(x)).collect()
}
/// `n` canonical KoalaBear values: high 32 bits of SplitMix64 reduced mod p.
fn seeded(seed: u64, n: usize) -> Vec<u32> {
    let mut g = SplitMix64::new(seed);
    (0..n).map(|_| ((g.next_u64() >> 32) as u32) % KP).collect()
}
fn ek(c: &[u32]) -> EK {
    <EK as BasedVectorSpace<K>>::from_basis_coefficients_slice(&kvec(c)).unwrap()
}
fn eku(x: EK) -> Vec<u32> {
    kuvec(<EK as BasedVectorSpace<K>>::as_basis_coefficients_slice(&x))
}
fn rows<const W: usize>(a: &[[K; W]]) -> Vec<Vec<u32>> {
    a.iter().map(|r| kuvec(r)).collect()
}

pub fn generate() -> (Vec<(&'static str, Value)>, Vec<Value>) {
    let mut cases = vec![];
    let mut seeds = SeedCounter::new(9000);
    let r_mod_p = ((1u64 << 32) % KP as u64) as u32;

    // ---- constants ----
    let gens: Vec<u32> = (0..=24).map(|b| ku(K::two_adic_generator(b))).collect();
    cases.push(json!({"op": "constants", "p": KP, "generator": ku(K::GENERATOR),
        "two_adicity": K::TWO_ADICITY, "two_adic_generators": gens, "ext4_w": 3,
        "monty_one": r_mod_p}));
    // W of BinomialExtensionField<K, 4>: X^4 = W.
    let x = ek(&[0, 1, 0, 0]);
    let x4 = x * x * x * x;
    assert_eq!(eku(x4), vec![3, 0, 0, 0]);

    // ---- base field: edge values against each other, then random pairs ----
    let edge = [0u32, 1, 2, 3, KP - 1, KP - 2, (KP - 1) / 2, (KP + 1) / 2, r_mod_p, (1 << 24) - 1, 1 << 24, (1 << 31) % KP, 0x7eff_ffff];
    let mut a: Vec<u32> = vec![];
    let mut b: Vec<u32> = vec![];
    for &x in &edge {
        for &y in &edge {
            a.push(x);
            b.push(y);
        }
    }
    let s = seeds.take();
    let r = seeded(s, 512);
    a.extend_from_slice(&r[..256]);
    b.extend_from_slice(&r[256..]);
    let (fa, fb) = (kvec(&a), kvec(&b));
    let add: Vec<u32> = fa.iter().zip(&fb).map(|(&x, &y)| ku(x + y)).collect();
    let sub: Vec<u32> = fa.iter().zip(&fb).map(|(&x, &y)| ku(x - y)).collect();
    let mul: Vec<u32> = fa.iter().zip(&fb).map(|(&x, &y)| ku(x * y)).collect();
    let cube: Vec<u32> = fa.iter().map(|&x| ku(x * x * x)).collect();
    let inv: Vec<Value> = fa.iter().map(|&x| x.try_inverse().map_or(Value::Null, |v| json!(ku(v)))).collect();
    cases.push(json!({"op": "base", "id": "edge-x-edge-then-random", "random_seed": s,
        "a": a, "b": b, "add": add, "sub": sub, "mul": mul, "cube": cube, "inv": inv}));

    // ---- degree-4 extension ----
    for i in 0..12 {
        let s = seeds.take();
        let v = seeded(s, 8);
        let (x, y) = (ek(&v[..4]), ek(&v[4..]));
        let inv = x.inverse();
        assert_eq!(x * inv, EK::ONE);
        cases.push(json!({"op": "ext4", "id": format!("random-{i}"), "a": &v[..4], "b": &v[4..],
            "mul": eku(x * y), "inv_a": eku(inv)}));
    }

    // ---- Poseidon2: the default constants, then permutations ----
    cases.push(json!({"op": "poseidon2_constants", "width": 16,
        "external_initial": rows(&KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL),
        "internal": kuvec(&KOALABEAR_POSEIDON2_RC_16_INTERNAL),
        "external_final": rows(&KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL)}));
    cases.push(json!({"op": "poseidon2_constants", "width": 24,
        "external_initial": rows(&KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL),
        "internal": kuvec(&KOALABEAR_POSEIDON2_RC_24_INTERNAL),
        "external_final": rows(&KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL)}));
    let p16 = default_koalabear_poseidon2_16();
    let p24 = default_koalabear_poseidon2_24();
    for width in [16usize, 24] {
        let mut inputs: Vec<Vec<u32>> = vec![vec![0; width], (0..width as u32).collect(), vec![KP - 1; width]];
        for _ in 0..5 {
            inputs.push(seeded(seeds.take(), width));
        }
        for (i, input) in inputs.iter().enumerate() {
            let out = if width == 16 {
                let mut s: [K; 16] = kvec(input).try_into().unwrap();
                p16.permute_mut(&mut s);
                kuvec(&s)
            } else {
                let mut s: [K; 24] = kvec(input).try_into().unwrap();
                p24.permute_mut(&mut s);
                kuvec(&s)
            };
            cases.push(json!({"op": "poseidon2", "id": format!("perm{width}-{i}"), "width": width, "input": input, "output": out}));
        }
    }

    // ---- DFT: Radix2Dit (cross-checked against Radix2DitParallel) ----
    let dit = Radix2Dit::<K>::default();
    let par = Radix2DitParallel::<K>::default();
    for &(log_h, w, added_bits) in &[(0usize, 1usize, 1usize), (1, 2, 1), (3, 1, 2), (5, 3, 1), (8, 2, 2), (10, 1, 1)] {
        let h = 1 << log_h;
        let s = seeds.take();
        let v = seeded(s, h * w);
        let m = RowMajorMatrix::new(kvec(&v), w);
        let dft = dit.dft_batch(m.clone()).to_row_major_matrix();
        assert_eq!(dft, par.dft_batch(m.clone()).to_row_major_matrix());
        let idft = dit.idft_batch(m.clone()).to_row_major_matrix();
        assert_eq!(idft, par.idft_batch(m.clone()).to_row_major_matrix());
        let shift = K::GENERATOR;
        let lde = dit.coset_lde_batch(m.clone(), added_bits, shift).to_row_major_matrix();
        assert_eq!(lde, par.coset_lde_batch(m.clone(), added_bits, shift).to_row_major_matrix());
        cases.push(json!({"op": "dft", "id": format!("h{h}-w{w}"), "height": h, "width": w, "input": v,
            "dft": output_matrix(&kuvec(&dft.values), h, w),
            "idft": output_matrix(&kuvec(&idft.values), h, w),
            "lde": {"added_bits": added_bits, "shift": ku(shift), "output": output_matrix(&kuvec(&lde.values), h << added_bits, w)}}));
    }
    let extra = vec![
        ("crate", json!("p3-koala-bear 0.9.0-rc.2")),
        ("field", json!("KoalaBear p = 2^31 - 2^24 + 1 = 2130706433; values canonical")),
        ("poseidon2", json!("default_koalabear_poseidon2_16/24(): x^3 S-box, R_F = 8, R_P = 20/23")),
        ("dft", json!("Radix2Dit dft_batch / idft_batch / coset_lde_batch(shift = GENERATOR), equal to Radix2DitParallel")),
    ];
    (extra, cases)
}
