/**
 * DuplexChallenger<BabyBear, Perm16, WIDTH = 16, RATE = 8>, Plonky3 0.9.0-rc.2 semantics
 * (plonky3.md §6): the Fiat-Shamir transcript that WHIR and proof-of-work build on. The GPU
 * grinder (prover.grind) reads snapshot() to build one Perm16 input per candidate witness.
 * @module
 */
import { ProverError } from '../errors.js';
import { BB_P } from '../params/babybear.js';
import { permuteBb16Words } from '../field/poseidon2-bb16.js';
import { requireDenseArray, requireInt, show } from '../validate.js';

const WIDTH = 16;
const RATE = 8;

/** The largest `bits` sample_bits accepts: 2^b must stay below p (2^30 < p < 2^31). */
export const MAX_SAMPLE_BITS = 30;

/** A challenger's whole state: sponge, pending inputs, unread outputs. */
export interface ChallengerState {
  state: Uint32Array;
  input: number[];
  output: number[];
}

export class DuplexChallenger {
  private state = new Uint32Array(WIDTH);
  private input: number[] = [];
  private output: number[] = [];
  /**
   * Optional trace hook: called with copies of every permutation's input and output state
   * (canonical), for diffing against a Rust permutation trace. Not copied by clone(), so the
   * grind search (on clones) is not traced; its final check_witness on this challenger is.
   */
  onPermute?: (input: Uint32Array, output: Uint32Array) => void;

  /** Absorb one canonical value; unread outputs are discarded; every 8th value permutes. */
  observe(x: number): void {
    requireObservable('observe(x)', x);
    this.output.length = 0;
    this.input.push(x);
    if (this.input.length === RATE) this.duplexing();
  }

  /** Observe each value in order (a digest, a Merkle cap, a row); all are checked before any is absorbed. */
  observeSlice(xs: ArrayLike<number>): void {
    const list =
      ArrayBuffer.isView(xs) && !(xs instanceof DataView)
        ? (xs as unknown as ArrayLike<unknown>)
        : requireDenseArray('observeSlice(xs)', xs, 'an array or typed array of canonical BabyBear values');
    for (let i = 0; i < list.length; i++) requireObservable(`observeSlice(xs): xs[${i}]`, list[i]);
    for (let i = 0; i < list.length; i++) this.observe(list[i] as number);
  }

  /** Overwrite the rate with the pending inputs, zero the rest of the rate, tag the length into state[8], permute. */
  private duplexing(): void {
    const k = this.input.length;
    for (let i = 0; i < k; i++) this.state[i] = this.input[i];
    this.input.length = 0;
    if (k > 0) {
      for (let i = k; i < RATE; i++) this.state[i] = 0;
      this.state[RATE] = (this.state[RATE] + k) % BB_P;
    }
    const before = this.onPermute ? this.state.slice() : undefined;
    // The same permutation as poseidon2.ts's, ~6x faster: a WHIR proof or verification duplexes ~100-250 times.
    permuteBb16Words(this.state);
    if (before) this.onPermute!(before, this.state.slice());
    this.output = Array.from(this.state.subarray(0, RATE));
  }

  /** One field element: outputs are popped from the end (state[7] first). */
  sample(): number {
    if (this.input.length > 0 || this.output.length === 0) this.duplexing();
    return this.output.pop()!;
  }

  /** An extension element [c0, c1, c2, c3] of BinomialExtensionField<BabyBear, 4>: 4 samples, c0 first. */
  sampleExt(): [number, number, number, number] {
    return [this.sample(), this.sample(), this.sample(), this.sample()];
  }

  /** The low `bits` bits of the next sample's canonical value; 0 <= bits <= 30. */
  sampleBits(bits: number): number {
    requireBits(bits);
    return this.sample() & (2 ** bits - 1);
  }

  /** GrindingChallenger::check_witness: true for bits = 0 (nothing observed); else observe(w) and test sampleBits(bits) == 0. */
  checkWitness(bits: number, witness: number): boolean {
    requireBits(bits);
    if (bits === 0) return true;
    this.observe(witness);
    return this.sampleBits(bits) === 0;
  }

  /** CPU grind: the smallest witness (Plonky3's serial order), then advances as check_witness does. Cost ~2^bits permutations. */
  grind(bits: number): number {
    requireBits(bits);
    for (let w = 0; w < BB_P; w++) {
      if (this.clone().checkWitness(bits, w)) {
        this.checkWitness(bits, w);
        return w;
      }
    }
    throw new ProverError('INVALID_ARGUMENT', `no witness for ${bits} bits`);
  }

  /** A challenger in the state `s` (a snapshot()): how the worker receives one. */
  static fromSnapshot(s: ChallengerState): DuplexChallenger {
    const c = new DuplexChallenger();
    c.restore(s);
    return c;
  }

  /**
   * Take the state `s` (a snapshot() of a challenger that went on from this one): how a
   * challenger passed to a job in the worker is advanced in place, as in-thread.
   */
  restore(s: ChallengerState): void {
    this.state = Uint32Array.from(s.state);
    this.input = [...s.input];
    this.output = [...s.output];
  }

  clone(): DuplexChallenger {
    const c = new DuplexChallenger();
    c.state = this.state.slice();
    c.input = [...this.input];
    c.output = [...this.output];
    return c;
  }

  /** Copies of the sponge state, pending inputs and unread outputs (for the GPU grinder and debugging). */
  snapshot(): ChallengerState {
    return { state: this.state.slice(), input: [...this.input], output: [...this.output] };
  }
}

export function requireBits(bits: number): void {
  requireInt('bits', bits, 0, MAX_SAMPLE_BITS, '2^bits must stay below p');
}

/** A value the transcript may absorb: an integer in [0, p); a number at or past p is NON_CANONICAL. */
function requireObservable(name: string, x: unknown): void {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0) {
    throw new ProverError('INVALID_ARGUMENT', `${name} = ${show(x)} is not a BabyBear value; pass an integer in [0, ${BB_P})`);
  }
  if (x >= BB_P) throw new ProverError('NON_CANONICAL', `${name} = ${x} is not canonical (must be < ${BB_P}); reduce it mod p`);
}

/**
 * The Perm16 input whose output lane 7 decides witness w (plonky3.md §6), with lane `slot`
 * left for w: s[0..m] = pending, s[m] = w, s[m+1..8] = 0, s[8] += m + 1.
 */
export function grindBaseState(ch: DuplexChallenger): { base: Uint32Array; slot: number } {
  const { state, input } = ch.snapshot();
  const m = input.length; // 0..7: an 8th input would already have been absorbed
  const base = state.slice();
  for (let i = 0; i < m; i++) base[i] = input[i];
  for (let i = m; i < RATE; i++) base[i] = 0;
  base[RATE] = (base[RATE] + m + 1) % BB_P;
  return { base, slot: m };
}
