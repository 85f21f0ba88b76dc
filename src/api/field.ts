/**
 * Public facet: element-wise BabyBear (or KoalaBear) and ext4 arithmetic (prover.batchField).
 * @module
 */
import { ProverError } from '../errors.js';
import { FIELD_OPS, runFieldOp, type FieldOp } from '../kernels/field.js';
import {
  fieldRecord,
  optionalOut,
  ownEntry,
  requireFieldArray,
  requireFieldName,
  requireLength,
  requireMultipleOf,
  show,
} from '../validate.js';
import type { FieldName } from '../params/fields.js';
import { maxBindingWords, type ApiEnv } from './env.js';
import { requireJobOptions, type JobOptions } from '../sched/job.js';

/** batchField's last argument: job options, and `out`, an array of a's length to write the result into (a itself, for in place). */
export interface FieldJobOptions extends JobOptions {
  out?: Uint32Array;
  /** 'babybear' (default) or 'koalabear' (p = 2^31 - 2^24 + 1; its ext4 is X^4 - 3). */
  field?: FieldName;
}

export interface FieldMethods {
  /**
   * Element-wise BabyBear arithmetic on the GPU over canonical values: add, sub, mul (two
   * inputs), square, pow7, inv (one input; inv maps 0 to 0), and the degree-4 extension
   * (x^4 = 11) ext4Mul / ext4Inv where each element is 4 consecutive values [c0, c1, c2, c3].
   * One-input ops ignore `b` (pass undefined to give `job` options). `job.field: 'koalabear'`
   * runs the same ops over KoalaBear (its extension: x^4 = 3).
   * @throws ProverError INVALID_ARGUMENT (op, field), INVALID_LENGTH (empty, b's length), NON_CANONICAL, TOO_LARGE, DESTROYED, DEVICE_LOST, GPU_ERROR
   * @example const c = await prover.batchField('mul', a, b);
   */
  batchField(op: FieldOp, a: Uint32Array, b?: Uint32Array, job?: FieldJobOptions): Promise<Uint32Array>;
}

/** A batchField call, checked: the op and its canonical inputs (the GPU and CPU paths both run it). */
export interface FieldJob {
  op: FieldOp;
  a: Uint32Array;
  b: Uint32Array | undefined;
  out: Uint32Array | undefined;
  field: FieldName;
}

/** Validate a batchField call into its job record (no device limits; `gpuScans`: see requireFieldArray). */
export function requireFieldJob(op: unknown, a: unknown, b: unknown, job?: unknown, gpuScans = false): FieldJob {
  const spec = ownEntry(FIELD_OPS, op);
  if (!spec) throw new ProverError('INVALID_ARGUMENT', `unknown field op ${show(op)}; pass one of ${Object.keys(FIELD_OPS).join(', ')}`);
  const field = requireFieldName('batchField job options.field', (job as FieldJobOptions | undefined)?.field);
  const av = requireFieldArray('a', a, gpuScans, fieldRecord(field));
  if (spec.ext) requireMultipleOf('a', av, 4, 'ext4 elements are 4 consecutive values');
  const out = optionalOut((job as FieldJobOptions | undefined)?.out, av.length);
  if (spec.arity === 1) return { op: op as FieldOp, a: av, b: undefined, out, field };
  if (b === undefined) throw new ProverError('INVALID_ARGUMENT', `field op "${String(op)}" needs two inputs; pass b`);
  const bv = requireFieldArray('b', b, gpuScans, fieldRecord(field));
  requireLength('b', bv, av.length, 'b must have the length of a');
  return { op: op as FieldOp, a: av, b: bv, out, field };
}

export function fieldMethods({ ctx, sched, alive }: ApiEnv): FieldMethods {
  return {
    async batchField(op, a, b, job) {
      alive();
      const jobOpts = requireJobOptions('batchField job options', job);
      const f = requireFieldJob(op, a, b, job, true);
      const maxWords = maxBindingWords(ctx);
      if (f.a.length > maxWords) {
        throw new ProverError(
          'TOO_LARGE',
          `batchField: ${f.a.length} values exceed this device's ${maxWords}-value binding limit; split the batch`,
        );
      }
      return sched.run(`batchField ${f.op}`, jobOpts, () => runFieldOp(ctx, f.op, f.a, f.b, f.out, f.field));
    },
  };
}
