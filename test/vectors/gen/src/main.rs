//! Generates webgpu-prover's known-answer test vectors from Plonky3 0.9.0-rc.2 and arkworks.
//!
//! Usage: cargo run --release -- <outdir>   (the repo uses test/vectors/)

mod challenger;
mod common;
mod dft;
mod field;
mod koalabear;
mod merkle;
mod msm;
mod poseidon;

use std::path::PathBuf;

type Gen = fn() -> (
    Vec<(&'static str, serde_json::Value)>,
    Vec<serde_json::Value>,
);

fn main() {
    let out: PathBuf = std::env::args()
        .nth(1)
        .expect("usage: gen-vectors <outdir>")
        .into();
    std::fs::create_dir_all(&out).unwrap();
    prng_selfcheck();
    let files: [(&str, Gen); 9] = [
        ("field.json", field::generate),
        ("dft.json", dft::generate),
        ("poseidon2.json", poseidon::generate_poseidon2),
        ("sponge.json", poseidon::generate_sponge),
        ("merkle.json", merkle::generate_merkle),
        ("challenger.json", challenger::generate),
        ("encode_commit.json", merkle::generate_encode_commit),
        ("msm_arkworks.json", msm::generate),
        ("koalabear.json", koalabear::generate),
    ];
    let only: Vec<String> = std::env::args().skip(2).collect();
    for (name, f) in files {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        let (extra, cases) = f();
        common::write_file(&out, name, common::header(extra), &cases);
    }
}

/// Reference SplitMix64 outputs (seed 0 is the well-known 0xE220A8397B1DCDAF, ...).
fn prng_selfcheck() {
    let mut g = common::SplitMix64::new(0);
    assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    assert_eq!(g.next_u64(), 0x06C4_5D18_8009_454F);
}
