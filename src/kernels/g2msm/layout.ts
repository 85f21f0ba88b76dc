/**
 * The G2 MSM's fixed shapes: workgroup sizes, the accumulation's run length, the window-batch
 * budget, and the uniforms of its kernels (fields as the WGSL structs name them, in order;
 * test/unit/g2-plan.test.ts checks each against its struct). Record sizes are in
 * src/params/bn254-g2.ts (G2_WORDS), which the WGSL reads as constants too.
 * @module
 */
import { paramsStruct } from '../msm/params.js';
import { G2_WORDS } from '../../params/bn254-g2.js';

export { SORT_WG } from '../msm/layout.js';

/** g2msm_check: a thread per point. */
export const G2_PREP_WG = 64;
/** g2msm_split: a thread per pair of scalars. */
export const G2_SPLIT_WG = 256;
/**
 * g2msm_acc: a thread per run. Each thread holds a few projective Fq2 points (~100 words) and
 * the multiply's temporaries, so a small group keeps the register file's occupancy up.
 */
export const G2_ACC_WG = 64;
/** g2msm_reduce: a thread per segment or pair. */
export const G2_RED_WG = 64;
/** g2msm_quick: a thread per lane of a group. */
export const G2_QUICK_WG = 64;
/**
 * g2msm_quick: points a first-pass group sums (they share its doublings). The shape moves its time
 * little (H200, random scalars, 8 lanes: 2^16 points 122 ms at 4, 126 at 8, 117 at 16, 149 at 32;
 * 2^18 426, 392, 365, 401; 16 lanes no better).
 */
export const G2_QUICK_PER = 16;
/** g2msm_quick: most lanes a group splits the scalars' bits over. */
export const G2_QUICK_LANES = 8;

/**
 * Entries a g2msm_acc thread adds in the first level (its run), at least: a bucket of 10^6
 * entries (a witness's ones) is 31 250 threads of 32 additions, not one thread of 10^6.
 */
export const ACC_SEG = 32;

/**
 * The first level's threads, at most (runs grow past ACC_SEG beyond it): 2^17 threads fill an
 * H200 (132 SMs), and cap that level's slots at 2^18 of 196 bytes (51 MB) however many windows
 * a batch holds (8 windows of 2^20 points: runs of 64).
 */
export const ACC_THREADS0 = 1 << 17;

/**
 * Items a thread adds in the later levels: those run a few thousand threads or fewer, so their
 * time is their chain of dependent additions, and a short run shortens it. A level cuts K items
 * to K / 4: the first level's 2^18 slots take 9 more levels of 8 additions (72 in the chain),
 * where runs of 32 took 4 levels of 32 (128).
 */
export const ACC_SEG_NEXT = 8;

/**
 * Sort entries a batch of windows may hold (4 bytes each: 32 MiB): 8 windows a batch at 2^20
 * points. Each batch's accumulation and reduction end in chains of dependent additions on few
 * threads (~100 additions, ~5 ms on the H200), so fewer batches are faster: at 2^20 points
 * (H200, random scalars) 2 windows a batch took 150 ms, 4 130, 8 113, all 16 100.
 */
export const ENTRY_BUDGET = 1 << 23;

/**
 * log2 of the buckets a g2msm_reduce_seg thread sums (at most the window's m): its chain is
 * 2·2^lseg + lseg additions, then 4 a level for c - 1 - lseg levels (c = 16, lseg 3: 19 + 48).
 */
export const RED_LSEG = 3;

/** Bytes of the G2 records. */
export const G2_BYTES = Object.freeze({
  affine: 4 * G2_WORDS.affine,
  projective: 4 * G2_WORDS.projective,
  part: 4 * G2_WORDS.part,
  pair: 4 * G2_WORDS.pair,
});

/** g2msm_check: n points from point base0. */
export const PREP_PARAMS = paramsStruct('g2msm_prep', 'PrepParams', ['n', 'base0']);
/** g2msm_split: n scalars. */
export const SPLIT_PARAMS = paramsStruct('g2msm_split', 'SplitParams', ['n']);
/**
 * g2msm_acc: mode 0 reads msm_sort's entries (nb buckets), mode 1 the previous level's kin slots;
 * seg items a thread, `threads` threads; fin: the last level (one thread) finishes every key.
 */
export const ACC_PARAMS = paramsStruct('g2msm_acc', 'AccParams', ['mode', 'kin', 'seg', 'nb', 'fin', 'threads']);
/** g2msm_reduce: nwin windows of m buckets in segments of 2^lseg; a level merges kin pairs a window. */
export const RED_PARAMS = paramsStruct('g2msm_reduce', 'RedParams', ['nwin', 'm', 'lseg', 'kin']);

/** g2msm_quick: n points (mode 0) or groups (mode 1), per a group, `chunks` lanes of `bits` scalar bits. */
export const QUICK_PARAMS = paramsStruct('g2msm_quick', 'G2QuickParams', ['n', 'per', 'mode', 'chunks', 'bits']);

/** Every G2 params struct (the WGSL agreement test walks these). */
export const G2_PARAMS = [PREP_PARAMS, SPLIT_PARAMS, ACC_PARAMS, RED_PARAMS, QUICK_PARAMS] as const;
