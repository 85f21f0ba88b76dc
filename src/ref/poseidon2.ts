/**
 * CPU twin of wgsl/lib/poseidon2_s16.gen.wgsl / _s24.wgsl: Plonky3's Poseidon2 over BabyBear on canonical values
 * (plonky3.md §2). Round structure: M_E; 4 full rounds (add RC to every lane, x^7 on every
 * lane, M_E); R_P partial rounds (RC and x^7 on lane 0 only, then M_I = J + diag(V)); 4 full
 * rounds. Any constant set of the right shape can be passed; the default is Plonky3's.
 * @module
 */
import { BB_P } from '../params/babybear.js';
import {
  POSEIDON2_DEFAULT_16, POSEIDON2_DEFAULT_24, POSEIDON2_DIAG_16, POSEIDON2_DIAG_24,
  POSEIDON2_ROUNDS_P_16, POSEIDON2_ROUNDS_P_24, type Poseidon2Constants,
} from '../params/poseidon2-babybear.js';
import { bbAdd, bbMul, bbPow7 } from './babybear.js';

export type Poseidon2Width = 16 | 24;
export type { Poseidon2Constants };

export const POSEIDON2_WIDTHS: readonly Poseidon2Width[] = [16, 24];

export function roundsP(width: Poseidon2Width): number {
  return width === 16 ? POSEIDON2_ROUNDS_P_16 : POSEIDON2_ROUNDS_P_24;
}

export function defaultConstants(width: Poseidon2Width): Poseidon2Constants {
  return width === 16 ? POSEIDON2_DEFAULT_16 : POSEIDON2_DEFAULT_24;
}

export function internalDiagonal(width: Poseidon2Width): readonly number[] {
  return width === 16 ? POSEIDON2_DIAG_16 : POSEIDON2_DIAG_24;
}

/**
 * Why a constant set does not fit `width` (4 × width external-initial, R_P internal,
 * 4 × width external-final, every value canonical), or undefined when it does.
 */
export function constantsProblem(width: Poseidon2Width, c: Poseidon2Constants): { code: 'INVALID_ARGUMENT' | 'INVALID_LENGTH' | 'NON_CANONICAL'; message: string } | undefined {
  const rp = roundsP(width);
  const isList = (x: unknown) => Array.isArray(x) || x instanceof Uint32Array;
  const isRows = (x: unknown) => Array.isArray(x) && x.length === 4 && x.every((r) => isList(r) && (r as ArrayLike<number>).length === width);
  const wrong = (message: string) => ({ code: 'INVALID_LENGTH' as const, message });
  if (!c || typeof c !== 'object') return { code: 'INVALID_ARGUMENT', message: 'constants must be { externalInitial, internal, externalFinal }' };
  if (!isRows(c.externalInitial)) return wrong(`externalInitial must be 4 rows of ${width} values`);
  if (!isRows(c.externalFinal)) return wrong(`externalFinal must be 4 rows of ${width} values`);
  if (!isList(c.internal) || c.internal.length !== rp) return wrong(`internal must hold ${rp} values (one per partial round at width ${width})`);
  const all: unknown[] = [];
  for (const list of [...c.externalInitial, c.internal, ...c.externalFinal]) for (let i = 0; i < list.length; i++) all.push(list[i]);
  const bad = all.findIndex((v) => typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= BB_P);
  if (bad >= 0) {
    const v = all[bad];
    return typeof v === 'number' && Number.isInteger(v) && v >= 0
      ? { code: 'NON_CANONICAL', message: `constant #${bad} = ${v} is not a canonical BabyBear value (must be < ${BB_P}); reduce it mod p` }
      : { code: 'INVALID_ARGUMENT', message: `constant #${bad} is not a non-negative integer; pass canonical BabyBear values` };
  }
  return undefined;
}

/** x ← M4·x on s[o..o+4] with Plonky3's MDSMat4 addition chain ([[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]). */
function m4(s: Uint32Array | number[], o: number): void {
  const x0 = s[o], x1 = s[o + 1], x2 = s[o + 2], x3 = s[o + 3];
  const t01 = bbAdd(x0, x1), t23 = bbAdd(x2, x3), t0123 = bbAdd(t01, t23);
  const t01123 = bbAdd(t0123, x1), t01233 = bbAdd(t0123, x3);
  s[o + 3] = bbAdd(t01233, bbAdd(x0, x0));
  s[o + 1] = bbAdd(t01123, bbAdd(x2, x2));
  s[o] = bbAdd(t01123, t01);
  s[o + 2] = bbAdd(t01233, t23);
}

/** M_E = circ(2·M4, M4, ..., M4): M4 on each 4-chunk, then add the column sums over chunks. */
export function externalLayer(s: Uint32Array | number[]): void {
  const w = s.length;
  for (let o = 0; o < w; o += 4) m4(s, o);
  for (let i = 0; i < 4; i++) {
    let sum = 0;
    for (let o = i; o < w; o += 4) sum = bbAdd(sum, s[o]);
    for (let o = i; o < w; o += 4) s[o] = bbAdd(s[o], sum);
  }
}

/** M_I = J + diag(V): s_i ← Σ_j s_j + V_i·s_i. */
export function internalLayer(s: Uint32Array | number[], diag: readonly number[]): void {
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum = bbAdd(sum, s[i]);
  for (let i = 0; i < s.length; i++) s[i] = bbAdd(sum, bbMul(diag[i], s[i]));
}

/** Permute `state` (width 16 or 24 canonical values) in place. */
export function poseidon2Permute(state: Uint32Array | number[], constants?: Poseidon2Constants): void {
  const width = state.length as Poseidon2Width;
  if (width !== 16 && width !== 24) throw new RangeError(`Poseidon2 width must be 16 or 24, got ${state.length}`);
  const c = constants ?? defaultConstants(width);
  const diag = internalDiagonal(width);
  const full = (rc: readonly number[]) => {
    for (let i = 0; i < width; i++) state[i] = bbPow7(bbAdd(state[i], rc[i]));
    externalLayer(state);
  };
  externalLayer(state);
  for (const rc of c.externalInitial) full(rc);
  for (const rc of c.internal) {
    state[0] = bbPow7(bbAdd(state[0], rc));
    internalLayer(state, diag);
  }
  for (const rc of c.externalFinal) full(rc);
}

/** A permuted copy of one state. */
export function poseidon2(state: ArrayLike<number>, constants?: Poseidon2Constants): Uint32Array {
  const s = Uint32Array.from(state);
  poseidon2Permute(s, constants);
  return s;
}

/** Permute a batch of k·width values (k states back to back); returns a new array. */
export function poseidon2Batch(states: Uint32Array, width: Poseidon2Width, constants?: Poseidon2Constants): Uint32Array {
  const out = Uint32Array.from(states);
  for (let o = 0; o < out.length; o += width) poseidon2Permute(out.subarray(o, o + width), constants);
  return out;
}
