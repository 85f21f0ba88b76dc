// The inputs every consumer page proves on, shared by the pages (copied into each fixture) and by
// the test that computes the expected answers from the repo's src/ref and @noble/curves. Small on
// purpose: SwiftShader compiles each kernel family's pipelines once per page (seconds each), and
// the point is that the packaged code runs where the bundler put it, not its speed.

/** dft: 8 rows of width 1 (one column), arbitrary canonical BabyBear values incl. 0 and p-1. */
export const DFT_VALUES = [0, 1, 2013265920, 7, 123456789, 42, 1 << 30, 99];
export const DFT_WIDTH = 1;

/** poseidon2: one width-16 state, 0..15 (Plonky3's own test input for the permutation). */
export const POSEIDON2_STATE = Array.from({ length: 16 }, (_, i) => i);

/** msm: G and 2G (built by the page's own @noble/curves) with these scalars; as decimal strings. */
export const MSM_SCALARS = ['5', '21888242871839275222246405745257275088548364400416034343698204186575808495616'];

/** merkleCommit: 16 rows x 4 columns (row-major), opened at MERKLE_INDEX. */
export const MERKLE_WIDTH = 4;
export const MERKLE_VALUES = Array.from({ length: 16 * 4 }, (_, i) => (i * 2654435761) % 2013265921);
export const MERKLE_INDEX = 11;

/** batchField('mul', a, b) and grind(challenger that observed GRIND_OBSERVED, GRIND_BITS). */
export const FIELD_A = [0, 1, 2013265920, 123456789];
export const FIELD_B = [5, 2013265920, 2013265920, 987654321];
export const GRIND_OBSERVED = [1, 2, 3];
export const GRIND_BITS = 6;

/** whir: a table of 2^WHIR_VARIABLES values (i·7 + 1), committed, opened and verified (past 2^10 its sumcheck runs on the GPU). */
export const WHIR_VARIABLES = 11;

/** How long a page may take before it reports a timeout instead of hanging (ms). */
export const PAGE_TIMEOUT_MS = 90_000;
