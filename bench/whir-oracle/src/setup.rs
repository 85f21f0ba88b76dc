//! The fixed WHIR configuration of the oracle (whir.md §2: BabyBear, EF4, default Poseidon2-16,
//! sponge 16/8/8, truncated 2-to-1 compress, DuplexChallenger 16/8, Radix2DFTSmallBatch,
//! SuffixProver) and the command-line parameters that select one `ProtocolParameters`.
//! The config is derived exactly as the prove path derives it: `WhirConfig::new` over the
//! witness's (padded) variable count.

use p3_baby_bear::{BabyBear, Poseidon2BabyBear, default_babybear_poseidon2_16};
use p3_challenger::DuplexChallenger;
use p3_dft::Radix2DFTSmallBatch;
use p3_field::extension::BinomialExtensionField;
use p3_field::{Field, PrimeCharacteristicRing, PrimeField32};
use p3_matrix::dense::RowMajorMatrix;
use p3_merkle_tree::MerkleTreeMmcs;
use p3_sumcheck::layout::{Layout as _, SuffixProver, Table, Witness};
use p3_sumcheck::{OpeningBatch, OpeningProtocol, TableShape, TableSpec};
use p3_symmetric::{PaddingFreeSponge, TruncatedPermutation};
use p3_whir::parameters::{
    FoldingFactor, ProtocolParameters, SecurityAssumption, WhirConfig, WhirConfigError,
};
use p3_whir::pcs::prover::WhirProver;
use serde::{Deserialize, Serialize};

use crate::trace::TracedPerm;

pub type F = BabyBear;
pub type EF = BinomialExtensionField<F, 4>;
pub type Perm = Poseidon2BabyBear<16>;
pub type PackedF = <F as Field>::Packing;
pub type Hash = PaddingFreeSponge<Perm, 16, 8, 8>;
pub type Compress = TruncatedPermutation<Perm, 2, 8, 16>;
pub type Mmcs = MerkleTreeMmcs<PackedF, PackedF, Hash, Compress, 2, 8>;
/// The challenger's permutation is the traced wrapper; the Merkle hashes use `Perm` directly.
pub type Challenger = DuplexChallenger<F, TracedPerm, 16, 8>;
pub type Dft = Radix2DFTSmallBatch<F>;
pub type Lay = SuffixProver<F, EF>;
pub type Pcs = WhirProver<EF, F, Dft, Mmcs, Challenger, Lay>;
pub type Config = WhirConfig<EF, F, Challenger>;

/// What the caller chose: the fields echoed into proof.json so `verify` can rebuild the config.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Params {
    pub n: usize,
    pub fold: usize,
    pub rate: usize,
    pub sec: usize,
    pub pow: usize,
    pub soundness: String,
    /// Explicit round rates; empty = p3-whir's example default (rate += fold_i - 1).
    #[serde(default)]
    pub rates: Vec<usize>,
    /// Explicit per-round folding factors; empty = Constant(fold).
    #[serde(default, rename = "foldingFactors")]
    pub folding_factors: Vec<usize>,
}

impl Params {
    pub fn folding_factor(&self) -> FoldingFactor {
        if self.folding_factors.is_empty() {
            FoldingFactor::Constant(self.fold)
        } else {
            FoldingFactor::PerRound(self.folding_factors.clone())
        }
    }

    pub fn soundness_type(&self) -> Result<SecurityAssumption, String> {
        match self.soundness.as_str() {
            "UniqueDecoding" => Ok(SecurityAssumption::UniqueDecoding),
            "JohnsonBound" => Ok(SecurityAssumption::JohnsonBound),
            "CapacityBound" => Ok(SecurityAssumption::CapacityBound),
            s => Err(format!("unknown soundness {s:?}")),
        }
    }

    /// `ProtocolParameters` as the upstream example builds them (default round rates included).
    pub fn protocol(&self) -> Result<ProtocolParameters, String> {
        let folding_factor = self.folding_factor();
        let round_log_inv_rates = if self.rates.is_empty() {
            let (num_rounds, _) = folding_factor
                .compute_number_of_rounds(self.n)
                .map_err(|e| format!("{e:?}"))?;
            let mut rate = self.rate;
            (0..num_rounds)
                .map(|round| {
                    rate += folding_factor.at_round(round) - 1;
                    rate
                })
                .collect()
        } else {
            self.rates.clone()
        };
        Ok(ProtocolParameters {
            security_level: self.sec,
            pow_bits: self.pow,
            folding_factor,
            soundness_type: self.soundness_type()?,
            starting_log_inv_rate: self.rate,
            round_log_inv_rates,
        })
    }

    /// The opening protocol of the example: one table, one column, one verifier-chosen point.
    pub fn opening_protocol(&self) -> OpeningProtocol {
        OpeningProtocol::new(vec![TableSpec::new(
            TableShape::new(self.n, 1),
            vec![OpeningBatch::new(vec![0], Vec::new())].into_iter().collect(),
        )])
        .pad_to_min_num_variables(self.folding_factor().at_round(0))
    }

    /// The variable count the PCS really uses: the protocol's padded table shape.
    pub fn padded_num_variables(&self) -> usize {
        let shapes = self.opening_protocol().table_shapes();
        shapes.iter().map(|s| s.num_variables()).max().unwrap_or(self.n)
    }
}

/// Config error as `Debug` (the CLI prints `CONFIG ERROR: <this>`).
pub enum SetupError {
    Params(String),
    Config(WhirConfigError),
}

impl core::fmt::Debug for SetupError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Params(s) => write!(f, "{s}"),
            Self::Config(e) => write!(f, "{e:?}"),
        }
    }
}

pub fn build_config(p: &Params) -> Result<Config, SetupError> {
    let protocol = p.protocol().map_err(SetupError::Params)?;
    Config::new(p.padded_num_variables(), protocol).map_err(SetupError::Config)
}

pub fn perm() -> Perm {
    default_babybear_poseidon2_16()
}

pub fn mmcs() -> Mmcs {
    Mmcs::new(Hash::new(perm()), Compress::new(perm()), 0)
}

pub fn challenger() -> Challenger {
    Challenger::new(TracedPerm::new(perm()))
}

pub fn build_pcs(config: Config) -> Pcs {
    let dft = Dft::new(1 << config.max_fft_size());
    Pcs::new(config, dft, mmcs())
}

/// The committed witness: one column of 2^n values, padded as the protocol is.
pub fn witness(p: &Params, evals: Vec<F>) -> Witness<F> {
    // `Table::new` takes one polynomial per ROW: one row of 2^n hypercube values.
    let width = evals.len();
    let table = Table::new(RowMajorMatrix::new(evals, width));
    Lay::new_witness(vec![table], p.folding_factor().at_round(0))
}

/// `--seed S`: the project's SplitMix64 stream (test/support/splitmix.ts `new SplitMix64(S)
/// .fieldArray(2^n)`): state += 0x9E3779B97F4A7C15 (wrapping), z = mix(state), x_i = (z >> 32) mod p.
pub fn seeded_evals(seed: u64, n: usize) -> Vec<F> {
    let mut state = seed;
    (0..1u64 << n)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            F::from_u32(((z >> 32) % F::ORDER_U32 as u64) as u32)
        })
        .collect()
}

/// Reads `count` little-endian u32 canonical values; rejects values >= p.
pub fn read_u32_file(path: &str, count: usize) -> Result<Vec<F>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    if bytes.len() != 4 * count {
        return Err(format!("{path}: {} bytes, expected {}", bytes.len(), 4 * count));
    }
    bytes
        .chunks_exact(4)
        .map(|c| {
            let v = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            if v >= F::ORDER_U32 {
                Err(format!("{path}: value {v} is not canonical (>= p)"))
            } else {
                Ok(F::from_u32(v))
            }
        })
        .collect()
}

