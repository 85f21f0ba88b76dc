//! Groth16 over BN254 in snarkjs's file formats: a seeded trusted setup that writes a `.zkey`
//! (`groth16-setup`), and arkworks' prover on a `.zkey` + `.wtns` (`groth16-prove`).
//!
//! Formats (iden3 binfiles: 4-byte magic, u32 version, u32 section count, then sections of
//! u32 type, u64 size, data), as snarkjs 0.7.6 writes and reads them:
//! - `.r1cs` (r1csfile): 1 header (u32 n8, prime, u32 nWires, nOutputs, nPubInputs, nPrvInputs,
//!   u64 nLabels, u32 nConstraints), 2 constraints (per constraint, for A, B, C: u32 count, then
//!   count x (u32 wire, n8-byte value, normal form)), 3 wire-to-label map (not read).
//! - `.zkey` (snarkjs src/zkey_new.js): 1 protocol (1 = Groth16), 2 the Groth16 header, 3 IC,
//!   4 coefficients, 5 A, 6 B1, 7 B2, 8 C, 9 H, 10 contributions. Points are affine, each
//!   coordinate little-endian in Montgomery form (x·2^256 mod q), infinity as all zeros.
//!   Coefficients are (u32 matrix 0 = A / 1 = B, u32 constraint, u32 signal, value·R² mod r
//!   with R = 2^256, normal form), per constraint its A records then its B records, then one
//!   A record (value 1) for each public row nConstraints + s, s = 0..=nPublic.
//! - `.wtns` (snarkjs src/wtns_utils.js): 1 (u32 n8, prime, u32 count), 2 values (normal form).
//!
//! The key is what snarkjs's zkey_new.js + contributions compute from a powers of tau, written
//! directly from the toxic waste: with L_j the Lagrange basis of the domain <ω_n> at τ and
//! u_s, v_s, w_s = Σ_c A/B/C[c][s]·L_c(τ) (plus L_{nConstraints+s}(τ) in u_s for s ≤ nPublic):
//! A_s = u_s·G1, B1_s = v_s·G1, B2_s = v_s·G2, IC_s = (β u_s + α v_s + w_s)/γ·G1 (public),
//! C_s = (β u_s + α v_s + w_s)/δ·G1 (private), H_i = L'_{2i+1}(τ)/δ·G1 with L' the Lagrange
//! basis of <ω_2n>: snarkjs's prover evaluates A·B − C on the odd coset ω_2n·<ω_n>, where the
//! vanishing polynomial is −2, and Σ_i (AB−C)(ω_2n^{2i+1})·L'_{2i+1}(τ) = h(τ)·Z(τ) because
//! A·B − C has degree < 2n and vanishes on <ω_n> (ptau section 12 holds these L' points).

use std::time::Instant;

use ark_bn254::{Bn254, Fq, Fq2, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
use ark_ec::scalar_mul::BatchMulPreprocessing;
use ark_ec::{AffineRepr, PrimeGroup};
use ark_ff::{BigInt, Field, One, PrimeField, UniformRand, Zero};
use ark_groth16::r1cs_to_qap::R1CSToQAP;
use ark_groth16::{prepare_verifying_key, Groth16, ProvingKey, VerifyingKey};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use ark_relations::r1cs::{ConstraintMatrices, ConstraintSystemRef, SynthesisError};
use ark_std::rand::{rngs::StdRng, RngCore, SeedableRng};
use rayon::prelude::*;
use serde_json::json;

/// ffjavascript's n8 for BN254's q and r.
const N8: usize = 32;
const G1_BYTES: usize = 2 * N8;
const G2_BYTES: usize = 4 * N8;
/// Fr's 2-adicity: the H points need the 2n-th roots, so n ≤ 2^27 (snarkjs has a special case
/// for n = 2^28 that this tool does not implement).
const MAX_LOG_N: u32 = 27;

type Res<T> = Result<T, String>;

// ---------------------------------------------------------------------------------------------
// binfile

struct BinFile<'a> {
    bytes: &'a [u8],
    /// (type, offset, size), in file order.
    sections: Vec<(u32, usize, usize)>,
    what: &'static str,
}

fn u32_at(b: &[u8], pos: usize) -> u32 {
    u32::from_le_bytes(b[pos..pos + 4].try_into().unwrap())
}

impl<'a> BinFile<'a> {
    fn parse(bytes: &'a [u8], magic: &[u8; 4], what: &'static str) -> Res<Self> {
        if bytes.len() < 12 || &bytes[..4] != magic {
            return Err(format!("{what}: not a {} file (magic)", String::from_utf8_lossy(magic)));
        }
        let n = u32_at(bytes, 8) as usize;
        let mut pos = 12;
        let mut sections = Vec::with_capacity(n);
        for _ in 0..n {
            if pos + 12 > bytes.len() {
                return Err(format!("{what}: truncated section table"));
            }
            let ty = u32_at(bytes, pos);
            let size = u64::from_le_bytes(bytes[pos + 4..pos + 12].try_into().unwrap()) as usize;
            pos += 12;
            if pos + size > bytes.len() {
                return Err(format!("{what}: section {ty} runs past the end of the file"));
            }
            sections.push((ty, pos, size));
            pos += size;
        }
        Ok(BinFile { bytes, sections, what })
    }

    fn section(&self, ty: u32) -> Res<&'a [u8]> {
        let mut found = self.sections.iter().filter(|s| s.0 == ty);
        let (_, off, size) = *found.next().ok_or_else(|| format!("{}: no section {ty}", self.what))?;
        if found.next().is_some() {
            return Err(format!("{}: section {ty} appears twice", self.what));
        }
        Ok(&self.bytes[off..off + size])
    }
}

struct BinWriter {
    out: Vec<u8>,
}

impl BinWriter {
    fn new(magic: &[u8; 4], n_sections: u32) -> Self {
        let mut out = Vec::new();
        out.extend_from_slice(magic);
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&n_sections.to_le_bytes());
        BinWriter { out }
    }
    fn section(&mut self, ty: u32, data: &[u8]) {
        self.out.extend_from_slice(&ty.to_le_bytes());
        self.out.extend_from_slice(&(data.len() as u64).to_le_bytes());
        self.out.extend_from_slice(data);
    }
}

// ---------------------------------------------------------------------------------------------
// field and point encodings

fn limbs_le(b: &[u8]) -> BigInt<4> {
    let mut l = [0u64; 4];
    for (i, x) in l.iter_mut().enumerate() {
        *x = u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().unwrap());
    }
    BigInt(l)
}

fn push_limbs(out: &mut Vec<u8>, l: &BigInt<4>) {
    for x in l.0 {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// An Fr value in normal form (r1cs, wtns); errors when >= r.
fn fr_normal(b: &[u8], what: &dyn Fn() -> String) -> Res<Fr> {
    Fr::from_bigint(limbs_le(b)).ok_or_else(|| format!("{}: value >= r", what()))
}

/// R² mod r with R = 2^256: zkey_new.js stores coefficient values multiplied by it.
fn r_squared() -> Fr {
    let r = Fr::from(2u64).pow([256u64]);
    r * r
}

/// Montgomery form of an Fq coordinate: arkworks' Fq is Montgomery with R = 2^256 too, so its
/// internal limbs are the file's.
fn push_fq(out: &mut Vec<u8>, f: &Fq) {
    push_limbs(out, &f.0);
}
fn fq_mont(b: &[u8]) -> Fq {
    Fq::new_unchecked(limbs_le(b))
}

fn push_g1(out: &mut Vec<u8>, p: &G1Affine) {
    if p.infinity {
        out.extend_from_slice(&[0u8; G1_BYTES]);
    } else {
        push_fq(out, &p.x);
        push_fq(out, &p.y);
    }
}
fn push_g2(out: &mut Vec<u8>, p: &G2Affine) {
    if p.infinity {
        out.extend_from_slice(&[0u8; G2_BYTES]);
    } else {
        for f in [&p.x.c0, &p.x.c1, &p.y.c0, &p.y.c1] {
            push_fq(out, f);
        }
    }
}

/// Unchecked decoding (no curve or subgroup check: the tool proves and then verifies, which
/// catches a wrong key).
fn g1_at(b: &[u8]) -> G1Affine {
    if b[..G1_BYTES].iter().all(|&x| x == 0) {
        return G1Affine::zero();
    }
    G1Affine::new_unchecked(fq_mont(&b[..N8]), fq_mont(&b[N8..2 * N8]))
}
fn g2_at(b: &[u8]) -> G2Affine {
    if b[..G2_BYTES].iter().all(|&x| x == 0) {
        return G2Affine::zero();
    }
    let f = |i: usize| fq_mont(&b[i * N8..(i + 1) * N8]);
    G2Affine::new_unchecked(Fq2::new(f(0), f(1)), Fq2::new(f(2), f(3)))
}
fn g1_section(b: &[u8], count: usize, what: &str) -> Res<Vec<G1Affine>> {
    if b.len() != count * G1_BYTES {
        return Err(format!("zkey: {what} has {} bytes, not {count} G1 points", b.len()));
    }
    Ok(b.par_chunks(G1_BYTES).map(g1_at).collect())
}
fn g2_section(b: &[u8], count: usize, what: &str) -> Res<Vec<G2Affine>> {
    if b.len() != count * G2_BYTES {
        return Err(format!("zkey: {what} has {} bytes, not {count} G2 points", b.len()));
    }
    Ok(b.par_chunks(G2_BYTES).map(g2_at).collect())
}

fn check_prime(b: &[u8], pos: usize, modulus: BigInt<4>, what: &str) -> Res<()> {
    if b.len() < pos + 4 + N8 || u32_at(b, pos) as usize != N8 || limbs_le(&b[pos + 4..pos + 4 + N8]) != modulus {
        return Err(format!("{what}: not over BN254 (bn128)"));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// r1cs

/// One linear combination: (signal, coefficient).
type Lc = Vec<(u32, Fr)>;

struct R1cs {
    n_vars: usize,
    n_public: usize,
    /// (A, B, C) per constraint.
    constraints: Vec<(Lc, Lc, Lc)>,
}

fn read_r1cs(bytes: &[u8]) -> Res<R1cs> {
    let f = BinFile::parse(bytes, b"r1cs", "r1cs")?;
    let h = f.section(1)?;
    check_prime(h, 0, Fr::MODULUS, "r1cs")?;
    if h.len() < 4 + N8 + 28 {
        return Err("r1cs: header too short".into());
    }
    let p = 4 + N8;
    let n_vars = u32_at(h, p) as usize;
    let n_outputs = u32_at(h, p + 4) as usize;
    let n_pub_inputs = u32_at(h, p + 8) as usize;
    let n_constraints = u32_at(h, p + 24) as usize;
    let s = f.section(2)?;
    let mut pos = 0usize;
    let need = |pos: usize, n: usize| -> Res<()> {
        if pos + n > s.len() {
            Err("r1cs: constraints section too short".into())
        } else {
            Ok(())
        }
    };
    let mut constraints = Vec::with_capacity(n_constraints);
    for c in 0..n_constraints {
        let mut lcs: [Lc; 3] = Default::default();
        for lc in lcs.iter_mut() {
            need(pos, 4)?;
            let n = u32_at(s, pos) as usize;
            pos += 4;
            need(pos, n * (4 + N8))?;
            lc.reserve(n);
            for _ in 0..n {
                let sig = u32_at(s, pos);
                if sig as usize >= n_vars {
                    return Err(format!("r1cs: constraint {c} uses signal {sig} >= nWires {n_vars}"));
                }
                let v = fr_normal(&s[pos + 4..pos + 4 + N8], &|| format!("r1cs: constraint {c}"))?;
                lc.push((sig, v));
                pos += 4 + N8;
            }
        }
        let [a, b, cc] = lcs;
        constraints.push((a, b, cc));
    }
    Ok(R1cs {
        n_vars,
        n_public: n_outputs + n_pub_inputs,
        constraints,
    })
}

// ---------------------------------------------------------------------------------------------
// setup

pub struct SetupReport {
    pub n_vars: usize,
    pub n_public: usize,
    pub n_constraints: usize,
    pub domain_size: usize,
    pub bytes: usize,
    pub read_ms: f64,
    pub setup_ms: f64,
    pub write_ms: f64,
}

/// Toxic waste from a seed: τ, α, β, γ, δ (nonzero). Known to anyone with the seed.
fn toxic_waste(seed: u64) -> [Fr; 5] {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x6772_6f74_6831_36);
    let mut next = || loop {
        let x = Fr::rand(&mut rng);
        if !x.is_zero() {
            return x;
        }
    };
    [next(), next(), next(), next(), next()]
}

fn ms_since(t: Instant) -> f64 {
    crate::util::r3(t.elapsed().as_secs_f64() * 1e3)
}

pub fn setup(r1cs_path: &str, out_path: &str, seed: u64) -> Res<SetupReport> {
    let t = Instant::now();
    let bytes = std::fs::read(r1cs_path).map_err(|e| format!("{r1cs_path}: {e}"))?;
    let r1cs = read_r1cs(&bytes)?;
    drop(bytes);
    let read_ms = ms_since(t);

    let t = Instant::now();
    let (n_vars, n_public) = (r1cs.n_vars, r1cs.n_public);
    let n_constraints = r1cs.constraints.len();
    if n_vars < n_public + 1 {
        return Err(format!("r1cs: nWires {n_vars} < nPublic {n_public} + 1"));
    }
    let rows = n_constraints + n_public + 1;
    let n = rows.next_power_of_two();
    if n.trailing_zeros() > MAX_LOG_N {
        return Err(format!(
            "r1cs: {rows} rows need a domain of 2^{}, over 2^{MAX_LOG_N}",
            n.trailing_zeros()
        ));
    }
    let [tau, alpha, beta, gamma, delta] = toxic_waste(seed);
    let domain = Radix2EvaluationDomain::<Fr>::new(n).unwrap();
    let domain2 = Radix2EvaluationDomain::<Fr>::new(2 * n).unwrap();
    let lag = domain.evaluate_all_lagrange_coefficients(tau);
    let delta_inv = delta.inverse().unwrap();
    let gamma_inv = gamma.inverse().unwrap();
    let h_scalars: Vec<Fr> = {
        let lag2 = domain2.evaluate_all_lagrange_coefficients(tau);
        lag2.par_iter().skip(1).step_by(2).map(|l| *l * delta_inv).collect()
    };

    // u, v, w at τ per signal, and the coefficient section in zkey_new.js's order.
    let r2 = r_squared();
    let mut u = vec![Fr::zero(); n_vars];
    let mut v = vec![Fr::zero(); n_vars];
    let mut w = vec![Fr::zero(); n_vars];
    let n_coefs: usize = r1cs
        .constraints
        .iter()
        .map(|(a, b, _)| a.len() + b.len())
        .sum::<usize>()
        + n_public
        + 1;
    let mut coefs = Vec::with_capacity(4 + n_coefs * (12 + N8));
    coefs.extend_from_slice(&(n_coefs as u32).to_le_bytes());
    let mut push_coef = |m: u32, c: usize, s: u32, val: Fr| {
        coefs.extend_from_slice(&m.to_le_bytes());
        coefs.extend_from_slice(&(c as u32).to_le_bytes());
        coefs.extend_from_slice(&s.to_le_bytes());
        push_limbs(&mut coefs, &(val * r2).into_bigint());
    };
    for (c, (a, b, cc)) in r1cs.constraints.iter().enumerate() {
        for &(s, val) in a {
            u[s as usize] += val * lag[c];
            push_coef(0, c, s, val);
        }
        for &(s, val) in b {
            v[s as usize] += val * lag[c];
            push_coef(1, c, s, val);
        }
        for &(s, val) in cc {
            w[s as usize] += val * lag[c];
        }
    }
    for s in 0..=n_public {
        u[s] += lag[n_constraints + s];
        push_coef(0, n_constraints + s, s as u32, Fr::one());
    }
    drop(r1cs);
    let k: Vec<Fr> = (0..n_vars)
        .into_par_iter()
        .map(|s| beta * u[s] + alpha * v[s] + w[s])
        .collect();
    let ic_scalars: Vec<Fr> = k[..=n_public].iter().map(|x| *x * gamma_inv).collect();
    let c_scalars: Vec<Fr> = k[n_public + 1..].par_iter().map(|x| *x * delta_inv).collect();
    drop(k);

    let g1 = G1Projective::generator();
    let g2 = G2Projective::generator();
    let t1 = BatchMulPreprocessing::new(g1, n_vars.max(n));
    let t2 = BatchMulPreprocessing::new(g2, n_vars);
    let a_pts = t1.batch_mul(&u);
    let b1_pts = t1.batch_mul(&v);
    let b2_pts = t2.batch_mul(&v);
    let c_pts = t1.batch_mul(&c_scalars);
    let ic_pts = t1.batch_mul(&ic_scalars);
    let h_pts = t1.batch_mul(&h_scalars);
    let key_g1 = t1.batch_mul(&[alpha, beta, delta]);
    let key_g2 = t2.batch_mul(&[beta, gamma, delta]);
    let setup_ms = ms_since(t);

    let t = Instant::now();
    let mut fw = BinWriter::new(b"zkey", 10);
    fw.section(1, &1u32.to_le_bytes());
    let mut hdr = Vec::new();
    for m in [Fq::MODULUS, Fr::MODULUS] {
        hdr.extend_from_slice(&(N8 as u32).to_le_bytes());
        push_limbs(&mut hdr, &m);
    }
    for x in [n_vars, n_public, n] {
        hdr.extend_from_slice(&(x as u32).to_le_bytes());
    }
    // α1, β1, β2, γ2, δ1, δ2 (zkey_utils.js readHeaderGroth16's order).
    push_g1(&mut hdr, &key_g1[0]);
    push_g1(&mut hdr, &key_g1[1]);
    push_g2(&mut hdr, &key_g2[0]);
    push_g2(&mut hdr, &key_g2[1]);
    push_g1(&mut hdr, &key_g1[2]);
    push_g2(&mut hdr, &key_g2[2]);
    fw.section(2, &hdr);
    let g1s = |pts: &[G1Affine]| {
        let mut o = Vec::with_capacity(pts.len() * G1_BYTES);
        pts.iter().for_each(|p| push_g1(&mut o, p));
        o
    };
    fw.section(3, &g1s(&ic_pts));
    fw.section(4, &coefs);
    fw.section(5, &g1s(&a_pts));
    fw.section(6, &g1s(&b1_pts));
    let mut o = Vec::with_capacity(b2_pts.len() * G2_BYTES);
    b2_pts.iter().for_each(|p| push_g2(&mut o, p));
    fw.section(7, &o);
    fw.section(8, &g1s(&c_pts));
    fw.section(9, &g1s(&h_pts));
    // Contributions: snarkjs's 64-byte circuit hash (left zero: nothing here checks it) and no
    // contributions.
    fw.section(10, &[[0u8; 64].as_slice(), &0u32.to_le_bytes()].concat());
    std::fs::write(out_path, &fw.out).map_err(|e| format!("{out_path}: {e}"))?;
    Ok(SetupReport {
        n_vars,
        n_public,
        n_constraints,
        domain_size: n,
        bytes: fw.out.len(),
        read_ms,
        setup_ms,
        write_ms: ms_since(t),
    })
}

// ---------------------------------------------------------------------------------------------
// prove

/// snarkjs's / circom's R1CS-to-QAP reduction (what ark-circom calls CircomReduction): A·w and
/// B·w on the domain <ω_n> (the public rows included, as they are in the zkey's coefficients),
/// C = A∘B, and A·B − C on the odd coset ω_2n·<ω_n>; the zkey's H points take those values as
/// they are. `matrices.a` / `.b` have one row per domain point (the domain is their length).
pub struct CircomReduction;

impl R1CSToQAP for CircomReduction {
    fn instance_map_with_evaluation<F: PrimeField, D: EvaluationDomain<F>>(
        _cs: ConstraintSystemRef<F>,
        _t: &F,
    ) -> Result<(Vec<F>, Vec<F>, Vec<F>, F, usize, usize), SynthesisError> {
        unimplemented!("keys come from zkey files (groth16-setup), not from arkworks' generator")
    }

    fn witness_map_from_matrices<F: PrimeField, D: EvaluationDomain<F>>(
        matrices: &ConstraintMatrices<F>,
        _num_inputs: usize,
        _num_constraints: usize,
        w: &[F],
    ) -> Result<Vec<F>, SynthesisError> {
        let n = matrices.a.len();
        let domain = Radix2EvaluationDomain::<F>::new(n).ok_or(SynthesisError::PolynomialDegreeTooLarge)?;
        let coset = domain
            .get_coset(
                Radix2EvaluationDomain::<F>::new(2 * n)
                    .ok_or(SynthesisError::PolynomialDegreeTooLarge)?
                    .group_gen(),
            )
            .ok_or(SynthesisError::PolynomialDegreeTooLarge)?;
        let eval = |m: &Vec<Vec<(F, usize)>>| -> Vec<F> {
            m.par_iter()
                .map(|row| row.iter().fold(F::zero(), |acc, (c, s)| acc + *c * w[*s]))
                .collect()
        };
        let (mut a, mut b) = rayon::join(|| eval(&matrices.a), || eval(&matrices.b));
        let mut c: Vec<F> = a.par_iter().zip(&b).map(|(x, y)| *x * y).collect();
        let to_coset = |v: &mut Vec<F>| {
            domain.ifft_in_place(v);
            coset.fft_in_place(v);
        };
        rayon::join(
            || rayon::join(|| to_coset(&mut a), || to_coset(&mut b)),
            || to_coset(&mut c),
        );
        a.par_iter_mut().zip(&b).zip(&c).for_each(|((x, y), z)| *x = *x * y - z);
        Ok(a)
    }

    fn h_query_scalars<F: PrimeField, D: EvaluationDomain<F>>(
        _max_power: usize,
        _t: F,
        _zt: F,
        _delta_inverse: F,
    ) -> Result<Vec<F>, SynthesisError> {
        unimplemented!("keys come from zkey files (groth16-setup), not from arkworks' generator")
    }
}

pub struct Zkey {
    pub pk: ProvingKey<Bn254>,
    pub matrices: ConstraintMatrices<Fr>,
    pub n_vars: usize,
    pub n_public: usize,
    pub domain_size: usize,
}

pub fn read_zkey(bytes: &[u8]) -> Res<Zkey> {
    let f = BinFile::parse(bytes, b"zkey", "zkey")?;
    let s1 = f.section(1)?;
    if s1.len() < 4 || u32_at(s1, 0) != 1 {
        return Err("zkey: not a Groth16 key (protocol != 1)".into());
    }
    let h = f.section(2)?;
    check_prime(h, 0, Fq::MODULUS, "zkey")?;
    check_prime(h, 4 + N8, Fr::MODULUS, "zkey")?;
    let mut p = 2 * (4 + N8);
    if h.len() != p + 12 + 3 * G1_BYTES + 3 * G2_BYTES {
        return Err("zkey: Groth16 header has the wrong size".into());
    }
    let n_vars = u32_at(h, p) as usize;
    let n_public = u32_at(h, p + 4) as usize;
    let n = u32_at(h, p + 8) as usize;
    p += 12;
    if !n.is_power_of_two() || n.trailing_zeros() > MAX_LOG_N || n_vars < n_public + 1 {
        return Err(format!(
            "zkey: bad header (nVars {n_vars}, nPublic {n_public}, domainSize {n})"
        ));
    }
    let alpha_g1 = g1_at(&h[p..]);
    let beta_g1 = g1_at(&h[p + G1_BYTES..]);
    let beta_g2 = g2_at(&h[p + 2 * G1_BYTES..]);
    let gamma_g2 = g2_at(&h[p + 2 * G1_BYTES + G2_BYTES..]);
    let delta_g1 = g1_at(&h[p + 2 * G1_BYTES + 2 * G2_BYTES..]);
    let delta_g2 = g2_at(&h[p + 3 * G1_BYTES + 2 * G2_BYTES..]);

    let cs = f.section(4)?;
    if cs.len() < 4 {
        return Err("zkey: coefficients section too short".into());
    }
    let count = u32_at(cs, 0) as usize;
    if cs.len() != 4 + count * (12 + N8) {
        return Err(format!(
            "zkey: coefficients section has {} bytes, not {count} records",
            cs.len()
        ));
    }
    let unscale = r_squared().inverse().unwrap();
    let mut a: Vec<Vec<(Fr, usize)>> = vec![Vec::new(); n];
    let mut b: Vec<Vec<(Fr, usize)>> = vec![Vec::new(); n];
    let (mut a_nz, mut b_nz) = (0, 0);
    for (i, r) in cs[4..].chunks_exact(12 + N8).enumerate() {
        let (m, c, s) = (u32_at(r, 0), u32_at(r, 4) as usize, u32_at(r, 8) as usize);
        if m > 1 || c >= n || s >= n_vars {
            return Err(format!(
                "zkey: coefficient {i} (matrix {m}, constraint {c}, signal {s}) is outside the key"
            ));
        }
        let val = fr_normal(&r[12..], &|| format!("zkey: coefficient {i}"))? * unscale;
        if m == 0 {
            a[c].push((val, s));
            a_nz += 1;
        } else {
            b[c].push((val, s));
            b_nz += 1;
        }
    }
    let n_private = n_vars - n_public - 1;
    let pk = ProvingKey {
        vk: VerifyingKey {
            alpha_g1,
            beta_g2,
            gamma_g2,
            delta_g2,
            gamma_abc_g1: g1_section(f.section(3)?, n_public + 1, "IC")?,
        },
        beta_g1,
        delta_g1,
        a_query: g1_section(f.section(5)?, n_vars, "A")?,
        b_g1_query: g1_section(f.section(6)?, n_vars, "B1")?,
        b_g2_query: g2_section(f.section(7)?, n_vars, "B2")?,
        h_query: g1_section(f.section(9)?, n, "H")?,
        l_query: g1_section(f.section(8)?, n_private, "C")?,
    };
    let matrices = ConstraintMatrices {
        num_instance_variables: n_public + 1,
        num_witness_variables: n_private,
        num_constraints: n,
        a_num_non_zero: a_nz,
        b_num_non_zero: b_nz,
        c_num_non_zero: 0,
        a,
        b,
        c: Vec::new(),
    };
    Ok(Zkey {
        pk,
        matrices,
        n_vars,
        n_public,
        domain_size: n,
    })
}

pub fn read_wtns(bytes: &[u8]) -> Res<Vec<Fr>> {
    let f = BinFile::parse(bytes, b"wtns", "wtns")?;
    let h = f.section(1)?;
    check_prime(h, 0, Fr::MODULUS, "wtns")?;
    if h.len() < 4 + N8 + 4 {
        return Err("wtns: header too short".into());
    }
    let count = u32_at(h, 4 + N8) as usize;
    let s = f.section(2)?;
    if s.len() != count * N8 {
        return Err(format!(
            "wtns: values section has {} bytes, not {count} values",
            s.len()
        ));
    }
    s.chunks_exact(N8)
        .enumerate()
        .map(|(i, b)| fr_normal(b, &|| format!("wtns: value {i}")))
        .collect()
}

pub struct ProveReport {
    pub ms: Vec<f64>,
    pub verified: bool,
    pub load_ms: f64,
    pub n_vars: usize,
    pub domain_size: usize,
}

/// Reads the key and witness (untimed, `load_ms`), then `reps` proofs, each timed from the
/// witness to the proof (QAP reduction, FFTs, the five MSMs), then arkworks' verification of
/// the last proof against the key's own verification key and the witness's public signals.
pub fn prove(zkey_path: &str, wtns_path: &str, reps: usize, seed: u64) -> Res<ProveReport> {
    let t = Instant::now();
    let zb = std::fs::read(zkey_path).map_err(|e| format!("{zkey_path}: {e}"))?;
    let key = read_zkey(&zb)?;
    drop(zb);
    let wb = std::fs::read(wtns_path).map_err(|e| format!("{wtns_path}: {e}"))?;
    let w = read_wtns(&wb)?;
    if w.len() != key.n_vars {
        return Err(format!("wtns has {} values, the zkey {} signals", w.len(), key.n_vars));
    }
    if w[0] != Fr::one() {
        return Err("wtns: value 0 is not 1".into());
    }
    let load_ms = ms_since(t);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut ms = Vec::with_capacity(reps);
    let mut proof = None;
    for _ in 0..reps.max(1) {
        let (r, s) = (Fr::rand(&mut rng), Fr::rand(&mut rng));
        let t = Instant::now();
        let p = Groth16::<Bn254, CircomReduction>::create_proof_with_reduction_and_matrices(
            &key.pk,
            r,
            s,
            &key.matrices,
            key.n_public + 1,
            key.domain_size,
            &w,
        )
        .map_err(|e| format!("prove: {e}"))?;
        ms.push(ms_since(t));
        proof = Some(p);
    }
    let pvk = prepare_verifying_key(&key.pk.vk);
    let verified = Groth16::<Bn254, CircomReduction>::verify_proof(&pvk, proof.as_ref().unwrap(), &w[1..=key.n_public])
        .unwrap_or(false);
    Ok(ProveReport {
        ms,
        verified,
        load_ms,
        n_vars: key.n_vars,
        domain_size: key.domain_size,
    })
}

// ---------------------------------------------------------------------------------------------
// synthetic circuits

/// A random satisfied R1CS of `n_constraints` multiplication rows in circom's shape, written as
/// `.r1cs` + `.wtns`, for timing setup and proving at sizes circom takes long to compile.
/// Wires: 0 the constant 1, 1 the output, 2 the public input, 3..3+k private inputs, then one
/// product wire per row: row i is (c·w_x [+ c'·w_y]) · w_z = w_new with random earlier wires
/// and small random coefficients; a last row copies the last product to the output.
pub fn synth(n_constraints: usize, r1cs_path: &str, wtns_path: &str, seed: u64) -> Res<serde_json::Value> {
    if n_constraints < 2 {
        return Err("groth16-synth needs --constraints >= 2".into());
    }
    let mut rng = StdRng::seed_from_u64(seed ^ 0x73796e7468);
    let k = 8usize;
    let n_wires = 3 + k + n_constraints - 1;
    let mut w = Vec::with_capacity(n_wires);
    w.extend([Fr::one(), Fr::zero(), Fr::rand(&mut rng)]);
    w.extend((0..k).map(|_| Fr::rand(&mut rng)));
    let mut pick = |n: usize| (rng.next_u64() % n as u64) as usize;
    let mut cons = Vec::with_capacity(n_constraints * 120);
    let lc = |cons: &mut Vec<u8>, terms: &[(usize, Fr)]| {
        cons.extend_from_slice(&(terms.len() as u32).to_le_bytes());
        for (s, v) in terms {
            cons.extend_from_slice(&(*s as u32).to_le_bytes());
            push_limbs(cons, &v.into_bigint());
        }
    };
    for _ in 0..n_constraints - 1 {
        let m = w.len();
        let (x, y, z) = (2 + pick(m - 2), 2 + pick(m - 2), 2 + pick(m - 2));
        let (cx, cy) = (Fr::from(1 + pick(1000) as u64), Fr::from(1 + pick(1000) as u64));
        let a: Vec<(usize, Fr)> = if pick(2) == 0 {
            vec![(x, cx)]
        } else {
            vec![(x, cx), (y, cy)]
        };
        let av = a.iter().fold(Fr::zero(), |acc, (s, c)| acc + *c * w[*s]);
        lc(&mut cons, &a);
        lc(&mut cons, &[(z, Fr::one())]);
        lc(&mut cons, &[(m, Fr::one())]);
        w.push(av * w[z]);
    }
    let last = w.len() - 1;
    w[1] = w[last];
    lc(&mut cons, &[(last, Fr::one())]);
    lc(&mut cons, &[(0, Fr::one())]);
    lc(&mut cons, &[(1, Fr::one())]);

    let mut f = BinWriter::new(b"r1cs", 3);
    let mut h = Vec::new();
    h.extend_from_slice(&(N8 as u32).to_le_bytes());
    push_limbs(&mut h, &Fr::MODULUS);
    for x in [n_wires as u32, 1, 1, k as u32] {
        h.extend_from_slice(&x.to_le_bytes());
    }
    h.extend_from_slice(&(n_wires as u64).to_le_bytes());
    h.extend_from_slice(&(n_constraints as u32).to_le_bytes());
    f.section(1, &h);
    f.section(2, &cons);
    let map: Vec<u8> = (0..n_wires as u64).flat_map(|i| i.to_le_bytes()).collect();
    f.section(3, &map);
    std::fs::write(r1cs_path, &f.out).map_err(|e| format!("{r1cs_path}: {e}"))?;

    let mut f = BinWriter::new(b"wtns", 2);
    f.out[4..8].copy_from_slice(&2u32.to_le_bytes());
    let mut h = Vec::new();
    h.extend_from_slice(&(N8 as u32).to_le_bytes());
    push_limbs(&mut h, &Fr::MODULUS);
    h.extend_from_slice(&(n_wires as u32).to_le_bytes());
    f.section(1, &h);
    let mut vals = Vec::with_capacity(n_wires * N8);
    w.iter().for_each(|v| push_limbs(&mut vals, &v.into_bigint()));
    f.section(2, &vals);
    std::fs::write(wtns_path, &f.out).map_err(|e| format!("{wtns_path}: {e}"))?;
    Ok(json!({ "bench": "groth16_synth", "n_constraints": n_constraints, "n_wires": n_wires, "n_public": 2 }))
}

pub fn setup_json(r: &SetupReport) -> serde_json::Value {
    json!({
        "bench": "groth16_setup",
        "n_vars": r.n_vars, "n_public": r.n_public, "n_constraints": r.n_constraints,
        "domain_size": r.domain_size, "bytes": r.bytes, "threads": rayon::current_num_threads(),
        "read_ms": r.read_ms, "setup_ms": r.setup_ms, "write_ms": r.write_ms,
    })
}

pub fn prove_json(r: &ProveReport) -> serde_json::Value {
    json!({
        "ms": r.ms, "verified": r.verified,
        "bench": "groth16_prove", "lib": "ark-groth16 0.5 + CircomReduction",
        "threads": rayon::current_num_threads(), "load_ms": r.load_ms,
        "n_vars": r.n_vars, "domain_size": r.domain_size,
    })
}
