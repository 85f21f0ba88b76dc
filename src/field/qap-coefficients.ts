/**
 * The QAP's coefficients as a snarkjs zkey stores them (section 4), as parallel arrays: the record
 * the Groth16 key reader makes, the GPU's polynomial stage uploads and the CPU twin reads.
 * @module
 */

/**
 * One entry per nonzero matrix entry: matrix 0 = A, 1 = B (a zkey has no C: C = A ∘ B on the
 * domain); values as stored, 8 LE words each, value·R² mod r (params/bn254-fr.ts ZKEY_COEF_UNSCALE).
 */
export interface QapCoefficients {
  readonly count: number;
  readonly matrix: Uint32Array;
  readonly constraint: Uint32Array;
  readonly signal: Uint32Array;
  readonly values: Uint32Array;
}
