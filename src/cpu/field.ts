/**
 * The CPU path of batchField: the same op table as the GPU's, element by element with
 * src/field (BabyBear's bindings, or another field's ops built from its record). inv and
 * ext4Inv map 0 to 0, as the GPU kernels do.
 * @module
 */
import { bbAdd, bbInv, bbMul, bbPow7, bbSquare, bbSub, ext4Inv, ext4Mul, type Ext4 } from '../field/babybear.js';
import { monty31Ops } from '../field/monty31-ops.js';
import { ext4Ops } from '../field/ext4.js';
import { MONTY31_FIELDS, type FieldName } from '../params/fields.js';
import type { FieldOp } from '../kernels/field.js';
import { requireFieldJob, type FieldMethods } from '../api/field.js';
import { requireJobOptions } from '../sched/job.js';
import { cpuSteps } from './queue.js';
import type { CpuEnv } from './env.js';

const BASE: Partial<Record<FieldOp, (a: number, b: number) => number>> = {
  add: bbAdd,
  sub: bbSub,
  mul: bbMul,
  square: (a) => bbSquare(a),
  pow7: (a) => bbPow7(a),
  inv: (a) => (a === 0 ? 0 : bbInv(a)),
};

interface OpTable {
  base: Partial<Record<FieldOp, (a: number, b: number) => number>>;
  ext4Mul(a: Ext4, b: Ext4): Ext4;
  ext4Inv(a: Ext4): Ext4;
}

const TABLES = new Map<FieldName, OpTable>([['babybear', { base: BASE, ext4Mul, ext4Inv }]]);

function tableOf(field: FieldName): OpTable {
  let t = TABLES.get(field);
  if (!t) {
    const F = MONTY31_FIELDS[field];
    const { add, sub, mul, square, pow, inv } = monty31Ops(F);
    const e = ext4Ops(F);
    const base = { add, sub, mul, square, pow7: (x: number) => pow(x, 7), inv: (x: number) => (x === 0 ? 0 : inv(x)) };
    TABLES.set(field, (t = { base, ext4Mul: e.mul, ext4Inv: e.inv }));
  }
  return t;
}

const ext = (v: Uint32Array, i: number): Ext4 => [v[i], v[i + 1], v[i + 2], v[i + 3]];
const isZero = (e: Ext4) => e.every((x) => x === 0);

/** One op on elements [from, to) of a and b into out (for ext4 ops, from and to are multiples of 4). */
export function fieldRange(
  op: FieldOp,
  a: Uint32Array,
  b: Uint32Array | undefined,
  out: Uint32Array,
  from: number,
  to: number,
  field: FieldName = 'babybear',
): void {
  const t = tableOf(field);
  const f = t.base[op];
  if (f) {
    for (let i = from; i < to; i++) out[i] = f(a[i], b ? b[i] : 0);
    return;
  }
  for (let i = from; i < to; i += 4) {
    const x = ext(a, i);
    out.set(op === 'ext4Mul' ? t.ext4Mul(x, ext(b!, i)) : isZero(x) ? x : t.ext4Inv(x), i);
  }
}

export function cpuFieldMethods({ sched, alive }: CpuEnv): FieldMethods {
  return {
    async batchField(op, a, b, job) {
      alive();
      const jobOpts = requireJobOptions('batchField job options', job);
      const f = requireFieldJob(op, a, b, job);
      return sched.run(`batchField ${f.op}`, jobOpts, async (control) => {
        const step = cpuSteps(control);
        const out = f.out ?? new Uint32Array(f.a.length); // elementwise: in place (out = a) is safe
        const chunk = 1 << 14; // a multiple of 4: ext4 elements never straddle chunks
        for (let i = 0; i < out.length; i += chunk) {
          fieldRange(f.op, f.a, f.b, out, i, Math.min(out.length, i + chunk), f.field);
          await step('field');
        }
        return out;
      });
    },
  };
}
