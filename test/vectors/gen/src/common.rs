//! Shared helpers: the SplitMix64 input generator, field conversions and JSON output shapes.

use p3_baby_bear::BabyBear;
use p3_field::PrimeField32;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

pub type F = BabyBear;
pub const P: u32 = 2013265921;

/// Outputs with at most this many field elements are stored in full.
pub const FULL_OUTPUT_LIMIT: usize = 4096;
/// Inputs with at most this many field elements are also stored explicitly.
pub const EXPLICIT_INPUT_LIMIT: usize = 64;

/// SplitMix64, exactly as specified in test/vectors/README.md.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A canonical BabyBear value: the high 32 bits of next() reduced mod p.
    pub fn next_u32_field(&mut self) -> u32 {
        ((self.next_u64() >> 32) as u32) % P
    }
}

/// `n` successive field elements (canonical u32) from a fresh generator with `seed`.
pub fn seeded_u32(seed: u64, n: usize) -> Vec<u32> {
    let mut g = SplitMix64::new(seed);
    (0..n).map(|_| g.next_u32_field()).collect()
}

pub fn seeded_field(seed: u64, n: usize) -> Vec<F> {
    to_field(&seeded_u32(seed, n))
}

pub fn to_field(v: &[u32]) -> Vec<F> {
    v.iter()
        .map(|&x| {
            assert!(x < P, "non-canonical input {x}");
            F::new(x)
        })
        .collect()
}

pub fn to_u32(v: &[F]) -> Vec<u32> {
    v.iter().map(|x| x.as_canonical_u32()).collect()
}

pub fn fu(x: F) -> u32 {
    x.as_canonical_u32()
}

/// Hex SHA-256 over the values as little-endian u32 bytes.
pub fn sha256_u32(v: &[u32]) -> String {
    let mut h = Sha256::new();
    for x in v {
        h.update(x.to_le_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// `"input"` record for a seeded h x w matrix (values included when small).
pub fn seeded_input(seed: u64, height: usize, width: usize) -> Value {
    let n = height * width;
    if n <= EXPLICIT_INPUT_LIMIT {
        json!({"seed": seed, "height": height, "width": width, "values": seeded_u32(seed, n)})
    } else {
        json!({"seed": seed, "height": height, "width": width})
    }
}

/// `"input"` record for an explicit (non-seeded) matrix.
pub fn explicit_input(values: &[u32], height: usize, width: usize) -> Value {
    assert_eq!(values.len(), height * width);
    json!({"height": height, "width": width, "values": values})
}

/// `"output"` record: full values when small, else sha256 + head.
pub fn output_matrix(values: &[u32], height: usize, width: usize) -> Value {
    assert_eq!(values.len(), height * width);
    if values.len() <= FULL_OUTPUT_LIMIT {
        json!({"height": height, "width": width, "values": values})
    } else {
        json!({
            "height": height,
            "width": width,
            "sha256": sha256_u32(values),
            "head": &values[..32],
        })
    }
}

/// Assigns unique input seeds within one file: base + running counter.
pub struct SeedCounter {
    next: u64,
}

impl SeedCounter {
    pub fn new(base: u64) -> Self {
        Self { next: base }
    }
    pub fn take(&mut self) -> u64 {
        let s = self.next;
        self.next += 1;
        s
    }
}

pub const PLONKY3_VERSION: &str = "0.9.0-rc.2";
pub const GENERATOR_NAME: &str = "webgpu-prover test/vectors/gen (gen-vectors 0.1.0)";

pub fn header(extra: Vec<(&str, Value)>) -> Value {
    let mut head = serde_json::Map::new();
    head.insert("generator".into(), json!(GENERATOR_NAME));
    head.insert("plonky3".into(), json!(PLONKY3_VERSION));
    for (k, v) in extra {
        head.insert(k.into(), v);
    }
    Value::Object(head)
}

/// Writes `{ header..., "cases": [ one case per line ] }`.
pub fn write_file(dir: &std::path::Path, name: &str, header: Value, cases: &[Value]) {
    let mut s = String::from("{\n");
    if let Value::Object(m) = &header {
        for (k, v) in m {
            s.push_str(&format!(
                "  {}: {},\n",
                json!(k),
                serde_json::to_string(v).unwrap()
            ));
        }
    }
    s.push_str("  \"cases\": [\n");
    for (i, c) in cases.iter().enumerate() {
        s.push_str("    ");
        s.push_str(&serde_json::to_string(c).unwrap());
        if i + 1 < cases.len() {
            s.push(',');
        }
        s.push('\n');
    }
    s.push_str("  ]\n}\n");
    // Make sure the file is valid JSON before writing it.
    let _: Value = serde_json::from_str(&s).expect("generated JSON must parse");
    let path = dir.join(name);
    std::fs::write(&path, s).unwrap();
    eprintln!(
        "wrote {} ({} cases, {} bytes)",
        path.display(),
        cases.len(),
        std::fs::metadata(&path).unwrap().len()
    );
}
