/**
 * The quadratic sumcheck of p3-sumcheck 0.9.0-rc.2 in suffix order, over a product of the
 * polynomial's evaluations and a weight table: claimed sum = Σ_b evals[b]·weights[b]. Each round
 * sends h(0) = Σ_j e[2j]·w[2j] and h(∞) = Σ_j (e[2j+1] - e[2j])·(w[2j+1] - w[2j]) (the leading
 * coefficient), receives r, binds the last variable of both tables to r and moves the sum to
 * h(r). Field arithmetic is exact, so any summation order gives Rust's values.
 * @module
 */
import { EF_ONE, EF_ZERO, efAdd, efGet, efMul, efSub, type EfVec, type Ext4 } from './ext.js';
import { foldLastBase, foldLastExt } from './multilinear.js';
import { roundMessageBase, roundMessageExt } from './ef-loops.js';

/** What one round sends: [h(0), h(∞)]. */
export type RoundMessage = [Ext4, Ext4];

/** extrapolate_01inf: h(r) for the quadratic with h(0) = e0, h(1) = e1 and leading coefficient eInf. */
export function extrapolate01Inf(e0: Ext4, e1: Ext4, eInf: Ext4, r: Ext4): Ext4 {
  const oneMinusR = efSub(EF_ONE, r);
  const rTimesRMinus1 = efMul(r, efSub(r, EF_ONE));
  return efAdd(efAdd(efMul(e0, oneMinusR), efMul(e1, r)), efMul(eInf, rTimesRMinus1));
}

/** The claimed sum after a round: h(r), with h(1) = sum - h(0). */
export function nextSum(sum: Ext4, [h0, hInf]: RoundMessage, r: Ext4): Ext4 {
  return extrapolate01Inf(h0, efSub(sum, h0), hInf, r);
}

/** The live state of the sumcheck: evaluations (base field until the first bind), weights, claimed sum. */
export class SumcheckState {
  /** Base-field evaluations before the first fold, extension-field after. */
  private base: Uint32Array | null;
  private ext: EfVec | null;

  constructor(
    evals: { base: Uint32Array } | { ext: EfVec },
    public weights: EfVec,
    public sum: Ext4,
  ) {
    this.base = 'base' in evals ? evals.base : null;
    this.ext = 'ext' in evals ? evals.ext : null;
  }

  get numVariables(): number {
    return Math.log2(this.weights.length / 4);
  }

  /** The current evaluations in the extension (the base ones lifted if no fold has happened yet). */
  evals(): EfVec {
    if (this.ext) return this.ext;
    const lifted = new Uint32Array(4 * this.base!.length);
    for (let i = 0; i < this.base!.length; i++) lifted[4 * i] = this.base![i];
    return lifted;
  }

  /** The base-field evaluations, when no variable has been bound yet. */
  baseEvals(): Uint32Array | null {
    return this.base;
  }

  /** [h(0), h(∞)] of the next round. */
  roundMessage(): RoundMessage {
    return this.base ? roundMessageBase(this.base, this.weights) : roundMessageExt(this.ext!, this.weights);
  }

  /** Bind the last variable to r in both tables. */
  bind(r: Ext4): void {
    this.ext = this.base ? foldLastBase(this.base, r) : foldLastExt(this.ext!, r);
    this.base = null;
    this.weights = foldLastExt(this.weights, r);
  }

  /** After sending `message` and receiving r: the sum moves to h(r), the tables are bound. */
  advance(message: RoundMessage, r: Ext4): void {
    this.sum = nextSum(this.sum, message, r);
    this.bind(r);
  }

  /** Σ evals·weights, for checks. */
  dot(): Ext4 {
    const e = this.evals();
    let s = EF_ZERO;
    for (let i = 0; i < e.length / 4; i++) s = efAdd(s, efMul(efGet(e, i), efGet(this.weights, i)));
    return s;
  }
}
