//! The challenger's Poseidon2 permutation, wrapped so every permutation the challenger's real
//! sponge state goes through can be logged (`--trace`).
//!
//! Grinding must not pollute the trace. `DuplexChallenger::grind` (p3-challenger
//! grinding_challenger.rs) searches candidates with the permutation over `[F::Packing; 16]`
//! and then replays the winner through `check_witness` on the real state. Two cases:
//! - SIMD build (Packing != F, e.g. AVX2/AVX-512/NEON): the search runs on packed states, which
//!   this wrapper never logs (only `[F; 16]` states are recorded);
//! - scalar build (Packing == F): the search calls the scalar permutation too. Candidates all
//!   start from the same pre-grind state and their outputs are never continued, so `take` keeps
//!   only the records whose output the NEXT record continues (capacity slots 9..16 carry over
//!   unchanged between real duplexings, slot 8 takes the length tag) plus the last record.
//! Either way the trace holds exactly the real sponge transitions, one per grind included.

use std::any::Any;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use p3_field::PrimeField32;
use p3_symmetric::{CryptographicPermutation, Permutation};

use crate::setup::{F, Perm};

/// One logged permutation: input and output states as canonical u32.
pub struct PermRecord {
    pub input: [u32; 16],
    pub output: [u32; 16],
}

static ON: AtomicBool = AtomicBool::new(false);
static TRACE: Mutex<Vec<PermRecord>> = Mutex::new(Vec::new());

/// Starts recording (clears any previous records).
pub fn start() {
    TRACE.lock().unwrap().clear();
    ON.store(true, Ordering::SeqCst);
}

/// Stops recording and returns the real sponge transitions, in order.
pub fn take() -> Vec<PermRecord> {
    ON.store(false, Ordering::SeqCst);
    let all = std::mem::take(&mut *TRACE.lock().unwrap());
    let continued = |a: &PermRecord, b: &PermRecord| a.output[9..] == b.input[9..];
    let keep: Vec<bool> = (0..all.len())
        .map(|j| j + 1 == all.len() || continued(&all[j], &all[j + 1]))
        .collect();
    all.into_iter().zip(keep).filter_map(|(r, k)| k.then_some(r)).collect()
}

fn canon(state: &[F; 16]) -> [u32; 16] {
    core::array::from_fn(|i| state[i].as_canonical_u32())
}

#[derive(Clone, Debug)]
pub struct TracedPerm(Perm);

impl TracedPerm {
    pub const fn new(perm: Perm) -> Self {
        Self(perm)
    }
}

/// Delegates for every state type `Perm` handles; records scalar `[F; 16]` states when on.
impl<T: Clone + 'static> Permutation<T> for TracedPerm
where
    Perm: Permutation<T>,
{
    fn permute_mut(&self, state: &mut T) {
        if !ON.load(Ordering::Relaxed) {
            return self.0.permute_mut(state);
        }
        let input = (state as &mut dyn Any).downcast_mut::<[F; 16]>().map(|s| canon(s));
        self.0.permute_mut(state);
        if let Some(input) = input {
            let out = (state as &mut dyn Any).downcast_mut::<[F; 16]>().map(|s| canon(s));
            TRACE.lock().unwrap().push(PermRecord { input, output: out.unwrap() });
        }
    }
}

impl<T: Clone + 'static> CryptographicPermutation<T> for TracedPerm where Perm: CryptographicPermutation<T> {}

/// JSONL: `{"i":k,"in":[16],"out":[16]}` per permutation.
pub fn write_jsonl(path: &str, records: &[PermRecord]) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for (i, r) in records.iter().enumerate() {
        writeln!(
            out,
            "{{\"i\":{i},\"in\":{},\"out\":{}}}",
            serde_json::to_string(&r.input).unwrap(),
            serde_json::to_string(&r.output).unwrap()
        )?;
    }
    out.flush()
}
