//! dft.json: dft_batch / idft_batch / coset_lde_batch / encode (zero-pad + dft_batch).

use p3_commit::Encoder;
use p3_dft::{Radix2Dit, Radix2DitParallel, TwoAdicSubgroupDft};
use p3_field::PrimeCharacteristicRing;
use p3_matrix::dense::RowMajorMatrix;
use p3_matrix::Matrix;
use serde_json::{json, Value};

use crate::common::*;

pub struct Dfts {
    pub par: Radix2DitParallel<F>,
    pub dit: Radix2Dit<F>,
}

impl Dfts {
    pub fn new() -> Self {
        Self {
            par: Radix2DitParallel::default(),
            dit: Radix2Dit::default(),
        }
    }

    pub fn dft(&self, m: RowMajorMatrix<F>) -> RowMajorMatrix<F> {
        let a = self.par.dft_batch(m.clone()).to_row_major_matrix();
        let b = self.dit.dft_batch(m).to_row_major_matrix();
        assert_eq!(a, b, "Radix2DitParallel and Radix2Dit disagree (dft)");
        a
    }

    pub fn idft(&self, m: RowMajorMatrix<F>) -> RowMajorMatrix<F> {
        let a = self.par.idft_batch(m.clone()).to_row_major_matrix();
        let b = self.dit.idft_batch(m).to_row_major_matrix();
        assert_eq!(a, b, "Radix2DitParallel and Radix2Dit disagree (idft)");
        a
    }

    pub fn lde(&self, m: RowMajorMatrix<F>, added_bits: usize, shift: F) -> RowMajorMatrix<F> {
        let a = self
            .par
            .coset_lde_batch(m.clone(), added_bits, shift)
            .to_row_major_matrix();
        let b = self
            .dit
            .coset_lde_batch(m, added_bits, shift)
            .to_row_major_matrix();
        assert_eq!(a, b, "Radix2DitParallel and Radix2Dit disagree (coset_lde)");
        a
    }

    /// Zero-pad to h * 2^added_bits rows, then dft_batch. Cross-checked against
    /// p3_commit::Encoder::encode_batch (the WHIR encoder) and against Radix2Dit.
    pub fn encode(&self, m: RowMajorMatrix<F>, added_bits: usize) -> RowMajorMatrix<F> {
        let w = m.width();
        let mut padded = m.values.clone();
        padded.resize(m.values.len() << added_bits, F::ZERO);
        let out = self.dft(RowMajorMatrix::new(padded, w));
        let enc = self.par.encode_batch(m.clone(), added_bits);
        assert_eq!(out, enc, "manual zero-pad + dft != Encoder::encode_batch");
        out
    }
}

fn mat(values: Vec<F>, width: usize) -> RowMajorMatrix<F> {
    RowMajorMatrix::new(values, width)
}

pub fn generate() -> (Vec<(&'static str, Value)>, Vec<Value>) {
    let d = Dfts::new();
    let mut cases = vec![];
    let mut seeds = SeedCounter::new(2000);

    // ---- known-answer cases from plonky3.md section 7 (explicit inputs) ----
    let kat: [(&str, &str, usize, Vec<u32>, usize); 12] = [
        ("dft-a", "dft", 1, vec![1, 2, 3, 4], 0),
        ("dft-b", "dft", 1, (0..8).collect(), 0),
        ("dft-c", "dft", 2, (1..=8).collect(), 0),
        ("idft-a", "idft", 1, vec![1, 2, 3, 4], 0),
        ("idft-b", "idft", 1, (0..8).collect(), 0),
        ("idft-c", "idft", 2, (1..=8).collect(), 0),
        ("lde-a", "coset_lde", 1, vec![1, 2, 3, 4], 1),
        ("lde-b", "coset_lde", 2, (1..=8).collect(), 1),
        ("lde-c", "coset_lde", 1, vec![5, 6, 7, 8], 2),
        ("encode-a", "encode", 1, vec![1, 2], 1),
        ("encode-b", "encode", 1, vec![1, 2, 3, 4], 1),
        ("encode-c", "encode", 2, vec![1, 2, 3, 4], 2),
    ];
    for (id, op, width, values, added_bits) in kat {
        let h = values.len() / width;
        let m = mat(to_field(&values), width);
        let (out, shift) = match op {
            "dft" => (d.dft(m), None),
            "idft" => (d.idft(m), None),
            "coset_lde" => (d.lde(m, added_bits, F::new(31)), Some(31)),
            "encode" => (d.encode(m, added_bits), None),
            _ => unreachable!(),
        };
        let mut c = json!({"op": op, "id": id, "log_h": h.trailing_zeros(), "width": width});
        if op == "coset_lde" || op == "encode" {
            c["added_bits"] = json!(added_bits);
        }
        if let Some(s) = shift {
            c["shift"] = json!(s);
        }
        c["input"] = explicit_input(&values, h, width);
        c["output"] = output_matrix(&to_u32(&out.values), out.height(), width);
        cases.push(c);
    }

    // ---- seeded sweeps ----
    let widths = [1usize, 4, 16];
    for op in ["dft", "idft"] {
        for log_h in 0..=12usize {
            for &w in &widths {
                let h = 1 << log_h;
                let s = seeds.take();
                let m = mat(seeded_field(s, h * w), w);
                let out = if op == "dft" { d.dft(m) } else { d.idft(m) };
                cases.push(json!({
                    "op": op, "log_h": log_h, "width": w,
                    "input": seeded_input(s, h, w),
                    "output": output_matrix(&to_u32(&out.values), out.height(), w),
                }));
            }
        }
    }
    let lde_logs = [0usize, 1, 2, 3, 5, 8, 10, 12];
    for &shift in &[31u32, 7] {
        for &log_h in &lde_logs {
            for &w in &widths {
                for added_bits in 1..=3usize {
                    let h = 1 << log_h;
                    let s = seeds.take();
                    let m = mat(seeded_field(s, h * w), w);
                    let out = d.lde(m, added_bits, F::new(shift));
                    cases.push(json!({
                        "op": "coset_lde", "log_h": log_h, "width": w,
                        "added_bits": added_bits, "shift": shift,
                        "input": seeded_input(s, h, w),
                        "output": output_matrix(&to_u32(&out.values), out.height(), w),
                    }));
                }
            }
        }
    }
    for log_h in 0..=12usize {
        for &w in &widths {
            for added_bits in 1..=3usize {
                let h = 1 << log_h;
                let s = seeds.take();
                let m = mat(seeded_field(s, h * w), w);
                let out = d.encode(m, added_bits);
                cases.push(json!({
                    "op": "encode", "log_h": log_h, "width": w, "added_bits": added_bits,
                    "input": seeded_input(s, h, w),
                    "output": output_matrix(&to_u32(&out.values), out.height(), w),
                }));
            }
        }
    }

    let extra = vec![
        ("impl", json!("Radix2DitParallel (asserted equal to Radix2Dit; encode also asserted equal to p3_commit::Encoder::encode_batch)")),
        ("order", json!("all matrices row-major, rows in natural order")),
    ];
    (extra, cases)
}
