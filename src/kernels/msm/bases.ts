/**
 * The MSM's bases on the GPU: points uploaded as the caller gave them, then converted to
 * Montgomery form and range- and curve-checked there (msm_prep.wgsl, msm_to_mont), a piece at a
 * time, so the one-shot msm() can run its first part while later pieces are still being copied.
 * The checks' flags are read once, at the end: a job that finds a bad point still ran its GPU work
 * over the bad bases, and its caller throws instead of returning that result.
 * @module
 */
import { storageUsage, type GpuContext } from '../../gpu/context.js';
import { MSM_BYTES, MSM_WORDS, PREP_WG } from './layout.js';
import { PREP_PARAMS } from './params.js';
import { MSM_BASES_PIPELINE, PREP_B } from './pipelines.js';
import { bindGroup, dispatch, uploadParams } from './record.js';

/** msm_to_mont's products, run through one multiply site in a loop (msm_prep.wgsl says why). */
const TO_MONT_MULS = 5;

/** A flag word no index reaches: the checks' "none". */
const NONE = 0xffffffff;

/** Words of one packed point (x, y). */
const POINT_WORDS = MSM_WORDS.affine;

/** Words of a projective point's Z. */
const Z_WORDS = POINT_WORDS / 2;

/**
 * Most points converted per dispatch when their Z comes along: the Zs of one piece are in a buffer
 * of their own while it converts (2 MiB), which a job's 100 MB plan has room for (a 2^18-point
 * piece's 8 MiB it would not).
 */
const Z_PIECE = 1 << 16;

/**
 * How packed points' coordinates lie in their words: 'be', the caller's 32-byte big-endian numbers;
 * 'le', little-endian limbs; 'le-mont', little-endian limbs in Montgomery form (x·2^256 mod p, as a
 * snarkjs zkey stores them: converted as they are, no host arithmetic).
 */
export type PointEncoding = 'be' | 'le' | 'le-mont';

/** What the checks found: the smallest point index not on the curve, the smallest with a coordinate >= p (-1: none). */
export interface BasesCheck {
  bad: number;
  big: number;
}

/**
 * One buffer of bases, filled a prefix at a time: `upTo(end)` copies points [done, end) in and
 * records their conversion behind the copy (with the staging ring, each 16 MiB slot's conversion
 * goes in that slot's own submission, so the GPU converts slot k while the host fills k + 1).
 * Points are 16 words each: x, y as LE limbs, or with `be` as the caller's 64 bytes, x then y
 * big-endian; zeros = identity. With `z` (8 words a point, LE limbs) they are projective X, Y:
 * the GPU divides by Z (a noble point's affine form took two multiplies and a share of a batch
 * inversion on the host: ~0.5 s of a first 2^16-point call on the H100's host).
 */
export class BasesUpload {
  /** Points copied and converted so far, from 0. */
  private done = 0;

  private constructor(
    private readonly ctx: GpuContext,
    private readonly words: Uint32Array,
    readonly n: number,
    private readonly encoding: PointEncoding,
    private readonly pipe: GPUComputePipeline,
    /** the bases in Montgomery form once converted (the caller keeps it: release() frees it) */
    readonly buf: GPUBuffer,
    /** [not on the curve, coordinate >= p]: smallest index, or NONE */
    private readonly flags: GPUBuffer,
    /** projective points' Z (Z_WORDS each), or undefined: affine */
    private readonly z: Uint32Array | undefined,
    /** the zs binding of affine points (4 bytes, never read) */
    private readonly noZ: GPUBuffer,
  ) {}

  /** A buffer for `n` points of `words` (its pipeline compiled); nothing copied yet. */
  static async open(ctx: GpuContext, words: Uint32Array, n: number, encoding: PointEncoding, z?: Uint32Array): Promise<BasesUpload> {
    const [pipe] = await ctx.pipelines.all([MSM_BASES_PIPELINE]);
    const buf = ctx.pool.acquire(Math.max(4, MSM_BYTES.affine * n), storageUsage(), 'msm bases');
    const flags = ctx.upload(Uint32Array.of(NONE, NONE), 'msm bad');
    const noZ = ctx.upload(new Uint32Array(1), 'msm no z');
    return new BasesUpload(ctx, words, n, encoding, pipe, buf, flags, z, noZ);
  }

  /** Copy points [done, end) in and record their conversion (submitted before this resolves). */
  async upTo(end: number): Promise<void> {
    // Projective points a Z_PIECE at a time, each piece's Zs in a buffer while it converts.
    while (this.z && end - this.done > Z_PIECE) await this.copyIn(this.done + Z_PIECE);
    await this.copyIn(end);
  }

  private async copyIn(end: number): Promise<void> {
    const from = this.done;
    if (end <= from) return;
    const src = this.words.subarray(POINT_WORDS * from, POINT_WORDS * end);
    const zs = this.z ? this.ctx.upload(this.z.subarray(Z_WORDS * from, Z_WORDS * end), 'msm z') : this.noZ;
    const params: GPUBuffer[] = [];
    // A piece of words [at, at + count) of src has landed: convert its points.
    const convert = (enc: GPUCommandEncoder, at: number, count: number) => {
      const n = count / POINT_WORDS;
      const base0 = from + at / POINT_WORDS;
      const prm = uploadParams(this.ctx, PREP_PARAMS, {
        n,
        be: this.encoding === 'be' ? 1 : 0,
        muls: TO_MONT_MULS,
        base0,
        proj: this.z ? 1 : 0,
        zbase: from,
        mont: this.encoding === 'le-mont' ? 1 : 0,
      });
      params.push(prm);
      const pass = enc.beginComputePass({ label: 'msm to_mont' });
      dispatch(pass, this.ctx, this.pipe, bindGroup(this.ctx, PREP_B, [this.buf, this.flags, prm, zs]), n, PREP_WG);
      pass.end();
    };
    try {
      // The ring's slots hold whole points (a slot is a multiple of 16 words).
      await this.ctx.uploadAsync(src, 'msm bases', (enc, _dst, at, count) => convert(enc, at, count), this.buf, 4 * POINT_WORDS * from);
      this.done = end;
    } finally {
      // Submitted (or failed): queue order keeps each buffer's next user after its pass.
      for (const b of params) this.ctx.pool.release(b);
      if (zs !== this.noZ) this.ctx.pool.release(zs);
    }
  }

  /** The checks' findings over every point converted so far (waits for the GPU). */
  async check(): Promise<BasesCheck> {
    const [curve, range] = await this.ctx.readback(this.flags, 2);
    const first = (v: number) => (v === NONE ? -1 : v);
    return { bad: first(curve), big: first(range) };
  }

  /** The flags' buffer back to the pool; the bases' too unless `keepBases` (an msmBases handle's). */
  release(keepBases = false): void {
    this.ctx.pool.release(this.flags);
    this.ctx.pool.release(this.noZ);
    if (!keepBases) this.ctx.pool.release(this.buf);
  }
}
