/**
 * CPU twin of wgsl/lib/poseidon2_s16.gen.wgsl / _s24.wgsl: Plonky3's Poseidon2 over a 31-bit
 * field (BabyBear by default, KoalaBear by its record) on canonical values (plonky3.md §2).
 * Round structure: M_E; 4 full rounds (add RC to every lane, S-box on every lane, M_E); R_P
 * partial rounds (RC and S-box on lane 0 only, then M_I = J + diag(V)); 4 full rounds. The
 * S-box degree, R_P and V come from the field's record (src/params/poseidon2.ts). Any constant
 * set of the right shape can be passed; the default is Plonky3's.
 * @module
 */
import { BABY_BEAR } from '../params/babybear.js';
import type { Monty31Params } from '../params/monty31.js';
import { poseidon2Params, type Poseidon2Constants, type Poseidon2Width } from '../params/poseidon2.js';
import { monty31Ops } from '../field/monty31-ops.js';

export { constantsProblem, defaultConstants, internalDiagonal, POSEIDON2_WIDTHS, roundsP } from '../params/poseidon2.js';
export type { Poseidon2Constants, Poseidon2Width };

type State = Uint32Array | number[];

interface FieldPoseidon2 {
  externalLayer(s: State): void;
  internalLayer(s: State, diag: readonly number[]): void;
  permute(state: State, constants?: Poseidon2Constants): void;
}

function build(F: Monty31Params): FieldPoseidon2 {
  const { add, mul } = monty31Ops(F);
  /** x ← M4·x on s[o..o+4] with Plonky3's MDSMat4 addition chain ([[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]]). */
  const m4 = (s: State, o: number) => {
    const x0 = s[o],
      x1 = s[o + 1],
      x2 = s[o + 2],
      x3 = s[o + 3];
    const t01 = add(x0, x1),
      t23 = add(x2, x3),
      t0123 = add(t01, t23);
    const t01123 = add(t0123, x1),
      t01233 = add(t0123, x3);
    s[o + 3] = add(t01233, add(x0, x0));
    s[o + 1] = add(t01123, add(x2, x2));
    s[o] = add(t01123, t01);
    s[o + 2] = add(t01233, t23);
  };
  /** M_E = circ(2·M4, M4, ..., M4): M4 on each 4-chunk, then add the column sums over chunks. */
  const externalLayer = (s: State) => {
    const w = s.length;
    for (let o = 0; o < w; o += 4) m4(s, o);
    for (let i = 0; i < 4; i++) {
      let sum = 0;
      for (let o = i; o < w; o += 4) sum = add(sum, s[o]);
      for (let o = i; o < w; o += 4) s[o] = add(s[o], sum);
    }
  };
  /** M_I = J + diag(V): s_i ← Σ_j s_j + V_i·s_i. */
  const internalLayer = (s: State, diag: readonly number[]) => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum = add(sum, s[i]);
    for (let i = 0; i < s.length; i++) s[i] = add(sum, mul(diag[i], s[i]));
  };
  // x^7 = (x²·x)²·x (4 multiplies) and x^3 = x²·x (2), as the GPU computes them.
  const pow7 = (x: number) => {
    const x3 = mul(mul(x, x), x);
    return mul(mul(x3, x3), x);
  };
  const cube = (x: number) => mul(mul(x, x), x);
  const permute = (state: State, constants?: Poseidon2Constants) => {
    const width = state.length as Poseidon2Width;
    if (width !== 16 && width !== 24) throw new RangeError(`Poseidon2 width must be 16 or 24, got ${state.length}`);
    const params = poseidon2Params(width, F);
    const c = constants ?? params.constants;
    const diag = params.diag;
    const sbox = params.sboxDegree === 7 ? pow7 : cube;
    const full = (rc: readonly number[]) => {
      for (let i = 0; i < width; i++) state[i] = sbox(add(state[i], rc[i]));
      externalLayer(state);
    };
    externalLayer(state);
    for (const rc of c.externalInitial) full(rc);
    for (const rc of c.internal) {
      state[0] = sbox(add(state[0], rc));
      internalLayer(state, diag);
    }
    for (const rc of c.externalFinal) full(rc);
  };
  return { externalLayer, internalLayer, permute };
}

const cache = new WeakMap<Monty31Params, FieldPoseidon2>();
function forField(F: Monty31Params): FieldPoseidon2 {
  let p = cache.get(F);
  if (!p) cache.set(F, (p = build(F)));
  return p;
}
const BB = forField(BABY_BEAR);

/** M_E = circ(2·M4, M4, ..., M4) over `field` (BabyBear by default). */
export function externalLayer(s: State, field?: Monty31Params): void {
  (field ? forField(field) : BB).externalLayer(s);
}

/** M_I = J + diag(V): s_i ← Σ_j s_j + V_i·s_i. */
export function internalLayer(s: State, diag: readonly number[], field?: Monty31Params): void {
  (field ? forField(field) : BB).internalLayer(s, diag);
}

/** Permute `state` (width 16 or 24 canonical values) in place. */
export function poseidon2Permute(state: State, constants?: Poseidon2Constants, field?: Monty31Params): void {
  (field ? forField(field) : BB).permute(state, constants);
}

/** A permuted copy of one state. */
export function poseidon2(state: ArrayLike<number>, constants?: Poseidon2Constants, field?: Monty31Params): Uint32Array {
  const s = Uint32Array.from(state);
  poseidon2Permute(s, constants, field);
  return s;
}

/** Permute a batch of k·width values (k states back to back); returns a new array. */
export function poseidon2Batch(
  states: Uint32Array,
  width: Poseidon2Width,
  constants?: Poseidon2Constants,
  field?: Monty31Params,
): Uint32Array {
  const p = field ? forField(field) : BB;
  const out = Uint32Array.from(states);
  for (let o = 0; o < out.length; o += width) p.permute(out.subarray(o, o + width), constants);
  return out;
}
