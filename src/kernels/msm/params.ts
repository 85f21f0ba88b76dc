/**
 * The uniforms of the MSM kernels: one params struct per kernel, its fields named as the WGSL
 * struct names them and in the same order, and a packer that writes a record of them by name.
 * test/unit/msm-params.test.ts parses each WGSL struct and checks it against `fields` here.
 * @module
 */
import type { KernelName } from '../../wgsl/kernels.gen.js';

/**
 * Words of every MSM params buffer: one size for all of them (the largest struct is msm_walk's
 * 13 words), so the pool hands the same uniform buffers from kernel to kernel.
 */
export const PARAMS_WORDS = 16;

/** A kernel's params struct: all fields u32, in WGSL order (paramsStruct makes one). */
export interface ParamsStruct<F extends string> {
  /** the kernel (wgsl/kernels/<kernel>.wgsl) that declares the struct */
  readonly kernel: KernelName;
  /** the WGSL struct's name */
  readonly struct: string;
  readonly fields: readonly F[];
  /** The struct's words (PARAMS_WORDS, zeros past the fields). @throws RangeError for a value that is not a u32 */
  pack(values: Readonly<Record<F, number>>): Uint32Array;
}

export function paramsStruct<const F extends string>(kernel: KernelName, struct: string, fields: readonly F[]): ParamsStruct<F> {
  return Object.freeze({
    kernel,
    struct,
    fields,
    pack(values: Readonly<Record<F, number>>): Uint32Array {
      const words = new Uint32Array(PARAMS_WORDS);
      fields.forEach((f, i) => {
        const v = values[f];
        if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`${struct}.${f} = ${v} is not a u32`);
        words[i] = v;
      });
      return words;
    },
  });
}

/**
 * msm_split: scalars [0, n) of the run, halves [hlo, hhi] into slot h % planes; be: big-endian
 * bytes; base0: the run's first point in the bases (an identity point's scalar is zeroed); i0:
 * the run's first scalar within its chain (a scalar >= r is reported as i0 + its index).
 */
export const SPLIT_PARAMS = paramsStruct('msm_split', 'SplitParams', ['n', 'hlo', 'hhi', 'planes', 'be', 'base0', 'i0']);

/**
 * msm_sort (count, scans, scatter): n scalars, windows [w0, w0 + nwin) of c bits (c - 1 from
 * window `wide` on: wideWindows), m = 2^(c-1) buckets a window, nb = nwin·m buckets; planes:
 * half-plane slots resident.
 */
export const SORT_PARAMS = paramsStruct('msm_sort', 'SortParams', ['n', 'w0', 'nwin', 'nb', 'planes', 'c', 'm', 'wide']);

/**
 * msm_walk (walkers and fix-up): nb buckets from bucket bofs of the bucket sums, wthreads walker
 * threads, m buckets a window, base0 the run's first point. Riders: workgroups from rgroup0 on
 * run rthreads threads of an earlier batch's reduction step (rkind 1: the first pass over the
 * buckets from rin in segments of 2^rlseg; 2: a level merging groups of 2^rg pairs), output pairs
 * from rout on, added to the old ones where rkeep (msm_red.wgsl keep).
 */
export const WALK_PARAMS = paramsStruct('msm_walk', 'WalkParams', [
  'nb',
  'wthreads',
  'm',
  'base0',
  'bofs',
  'rgroup0',
  'rthreads',
  'rkind',
  'rin',
  'rg',
  'rout',
  'rlseg',
  'rkeep',
]);

/**
 * msm_reduce: nwin windows. msm_reduce_seg: m buckets a window, in segments of 2^lseg, into pairs from `out` on;
 * msm_reduce_level: kin pairs a window in, groups of 2^g merged into pair out + group; keep: add
 * each output pair's old value (a later part of a chain, schedule.ts).
 */
export const REDUCE_PARAMS = paramsStruct('msm_reduce', 'ReduceParams', ['nwin', 'm', 'kin', 'g', 'out', 'lseg', 'keep']);

/**
 * msm_prep (msm_to_mont): n points from point base0; be: x, y as the caller's big-endian bytes;
 * proj: projective X, Y with each point's Z in the zs binding, from point zbase on; mont: x, y are
 * LE limbs in Montgomery form already (a snarkjs zkey's point sections).
 */
export const PREP_PARAMS = paramsStruct('msm_prep', 'PrepParams', ['n', 'be', 'muls', 'base0', 'proj', 'zbase', 'mont']);

/**
 * msm_quick: mode 0, n points from point base0 (be: big-endian scalar bytes), per points a
 * thread; mode 1, n projective points of pin summed per a thread.
 */
export const QUICK_PARAMS = paramsStruct('msm_quick', 'QuickParams', ['n', 'base0', 'be', 'per', 'mode', 'chunks', 'bits']);

/** Every MSM params struct (the WGSL agreement test walks these). */
export const MSM_PARAMS: readonly ParamsStruct<string>[] = [
  SPLIT_PARAMS,
  SORT_PARAMS,
  WALK_PARAMS,
  REDUCE_PARAMS,
  PREP_PARAMS,
  QUICK_PARAMS,
];
