/**
 * The degree-4 binomial extension F_p[X]/(X^4 - W) of a 31-bit field (Plonky3
 * BinomialExtensionField<F, 4>): elements are [c0, c1, c2, c3] = Σ c_i X^i on canonical values.
 * CPU twin of wgsl/lib/babybear_ext4.wgsl; W comes from the field's record.
 * @module
 */
import type { Monty31Params } from '../params/monty31.js';
import { monty31Ops } from './monty31-ops.js';

export type Ext4 = [number, number, number, number];

export interface Ext4Ops {
  add(a: Ext4, b: Ext4): Ext4;
  sub(a: Ext4, b: Ext4): Ext4;
  mul(a: Ext4, b: Ext4): Ext4;
  square(a: Ext4): Ext4;
  /** RangeError on 0. */
  inv(a: Ext4): Ext4;
}

function build(F: Monty31Params): Ext4Ops {
  const { add, sub, mul, neg, inv: baseInv } = monty31Ops(F);
  const W = F.ext4W;
  const w = (x: number) => mul(W, x);
  /** c_k = Σ_{i+j=k} a_i b_j + W · Σ_{i+j=k+4} a_i b_j. */
  const mulExt = (a: Ext4, b: Ext4): Ext4 => {
    const m = (i: number, j: number) => mul(a[i], b[j]);
    return [
      add(m(0, 0), w(add(add(m(1, 3), m(2, 2)), m(3, 1)))),
      add(add(m(0, 1), m(1, 0)), w(add(m(2, 3), m(3, 2)))),
      add(add(add(m(0, 2), m(1, 1)), m(2, 0)), w(m(3, 3))),
      add(add(m(0, 3), m(1, 2)), add(m(2, 1), m(3, 0))),
    ];
  };
  /**
   * Inverse through the tower F_p ⊂ F_p[Y]/(Y² - W) ⊂ F_p[Y][X]/(X² - Y): write a = A + B·X with
   * A = a0 + a2·Y, B = a1 + a3·Y; then a·(A - B·X) = A² - B²·Y = N lies in F_p², and
   * a^-1 = (A - B·X)·N^-1 with N^-1 = (n0 - n1·Y) / (n0² - W·n1²). One base-field inversion.
   */
  const invExt = (a: Ext4): Ext4 => {
    const [a0, a1, a2, a3] = a;
    // A² = (a0² + W a2²) + 2 a0 a2 Y;  B² = (a1² + W a3²) + 2 a1 a3 Y;  B²·Y = W·2 a1 a3 + (a1² + W a3²) Y
    const A2_0 = add(mul(a0, a0), w(mul(a2, a2)));
    const A2_1 = add(mul(a0, a2), mul(a0, a2));
    const B2_0 = add(mul(a1, a1), w(mul(a3, a3)));
    const B2_1 = add(mul(a1, a3), mul(a1, a3));
    const n0 = sub(A2_0, w(B2_1));
    const n1 = sub(A2_1, B2_0);
    const d = sub(mul(n0, n0), w(mul(n1, n1)));
    if (d === 0) throw new RangeError(`${F.label} ext4: inverse of zero`);
    const dInv = baseInv(d);
    const m0 = mul(n0, dInv),
      m1 = mul(neg(n1), dInv); // N^-1 = m0 + m1 Y
    // (A - B X)(m0 + m1 Y): A·M and -B·M in F_p², then X-coefficient pairs.
    const am0 = add(mul(a0, m0), w(mul(a2, m1)));
    const am1 = add(mul(a0, m1), mul(a2, m0));
    const bm0 = add(mul(a1, m0), w(mul(a3, m1)));
    const bm1 = add(mul(a1, m1), mul(a3, m0));
    return [am0, neg(bm0), am1, neg(bm1)];
  };
  return Object.freeze({
    add: (a: Ext4, b: Ext4): Ext4 => [add(a[0], b[0]), add(a[1], b[1]), add(a[2], b[2]), add(a[3], b[3])],
    sub: (a: Ext4, b: Ext4): Ext4 => [sub(a[0], b[0]), sub(a[1], b[1]), sub(a[2], b[2]), sub(a[3], b[3])],
    mul: mulExt,
    square: (a: Ext4) => mulExt(a, a),
    inv: invExt,
  });
}

const cache = new WeakMap<Monty31Params, Ext4Ops>();

/** The extension arithmetic over field `F` (built once per record). */
export function ext4Ops(F: Monty31Params): Ext4Ops {
  let ops = cache.get(F);
  if (!ops) cache.set(F, (ops = build(F)));
  return ops;
}
