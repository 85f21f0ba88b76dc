/**
 * What crosses the worker boundary, both ways, as structured-clonable data: the caller's
 * arguments exactly as the in-thread prover would see them (so validation gives the same codes
 * and messages), and results as the caller's own objects. Tags:
 * - `$h`: a GPU handle (NttMatrix, MerkleTree, MsmBases) by id in the worker's table;
 * - `$points` / `$point`: noble G1 points as 64-byte affine (x, y big-endian; zeros = identity),
 *   rebuilt with the receiver's own @noble/curves; `$projective`: an array of points some of
 *   which are not affine, as their X, Y, Z words (field/point-words.ts), rebuilt as the same
 *   projective points (the page does no field arithmetic: their affine form cost it ~0.5 s for
 *   2^16 points on the H100's host; the GPU divides by Z);
 * - `$challenger`: a DuplexChallenger's state, advanced in the worker and written back;
 * - `$signal` / `$progress`: the job's AbortSignal and progress callback, replaced on the worker
 *   side by its own (an abort is forwarded by job id; progress through a comlink proxy);
 * - `$symbol` / `$function` / `$symbolKeys` / `$detached`: values structured clone refuses or
 *   drops, rebuilt as equivalent bad input so the worker rejects them with the same code.
 * noble's BN254 is loaded on demand (loadCurve): the page's client imports this module, and a page
 * that never runs an MSM should not download the curve (~50 kB minified).
 * @module
 */
import type { bn254 } from '@noble/curves/bn254.js';
import { DuplexChallenger, type ChallengerState } from '../ref/challenger.js';
import { ProverError } from '../errors.js';
import { loadPart } from '../lazy.js';
import type { HandleKind } from '../methods.js';
import { beBytes32, fromBeBytes32, fromLimbs } from '../params/bn254.js';
import { allAffine, projectiveWords } from '../field/point-words.js';
import { isSignal } from '../sched/job.js';

type G1Class = typeof bn254.G1.Point;
type Point = InstanceType<G1Class>;

let curve: { G1: G1Class } | undefined;
let loadingCurve: Promise<void> | undefined;

/** Load noble's BN254 G1 once; until then no argument is taken for a point. */
export function loadCurve(): Promise<void> {
  loadingCurve ??= loadPart("noble's BN254", () => import('@noble/curves/bn254.js')).then(
    (b) => {
      curve = { G1: b.bn254.G1.Point };
    },
    (e: unknown) => {
      loadingCurve = undefined; // a failed chunk fetch is retried by the next call
      throw e;
    },
  );
  return loadingCurve;
}

/** Whether the curve is loaded (then encoding and decoding points is synchronous). */
export const curveLoaded = (): boolean => curve !== undefined;

/** A noble point (false until the curve is loaded: no point can exist before). */
export const isPoint = (v: unknown): v is Point => curve !== undefined && v instanceof curve.G1;

/** Whether encoded arguments carry a `$point` (worker side: then the curve must be loaded to decode them). */
export function holdsPoint(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return false;
  if (isTag(v, '$point') || isTag(v, '$projective')) return true;
  return (Array.isArray(v) ? v : Object.values(v)).some(holdsPoint);
}

/**
 * Whether `args` may hold a noble point: an object with a toAffine method, where encode looks for
 * points (arguments, plain objects' values and arrays' elements, to depth 3; an array by its first
 * element, so 2^20 scalars cost nothing). The client loads the curve first for those calls, so a
 * point is packed exactly as before; other calls never download it.
 */
export function mayHoldPoints(args: readonly unknown[], depth = 0): boolean {
  return args.some((v) => {
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || depth > 3) return false;
    if (typeof (v as { toAffine?: unknown }).toAffine === 'function') return true;
    if (Array.isArray(v)) return v.length > 0 && mayHoldPoints([v[0]], depth + 1);
    return Object.getPrototypeOf(v) === Object.prototype && mayHoldPoints(Object.values(v), depth + 1);
  });
}

function requireCurve(): { G1: G1Class } {
  if (!curve) throw new Error('webgpu-prover: a BN254 point before the curve was loaded (await loadCurve())');
  return curve;
}

export type Tagged =
  | { $h: number; kind: HandleKind; props: Record<string, unknown> }
  | { $points: Uint8Array }
  | { $projective: { words: Uint32Array; z: Uint32Array } }
  | { $point: Uint8Array }
  | { $challenger: ChallengerState; slot: number }
  | { $signal: true }
  | { $progress: true }
  | { $symbol: string | null }
  | { $function: true }
  | { $detached: string };

function isTag(v: unknown, key: string): boolean {
  return typeof v === 'object' && v !== null && Object.hasOwn(v, key);
}

/** 64 bytes: x then y, 32-byte big-endian each; the identity is all zeros (as msm() takes packed points). */
export function packPoint(p: Point, out = new Uint8Array(64), at = 0): Uint8Array {
  if (p.Z === 0n) return out; // the identity (noble's is0() compares projectively: four multiplies)
  const { x, y } = p.toAffine();
  beBytes32(x, out, at);
  beBytes32(y, out, at + 32);
  return out;
}

export function unpackPoint(b: Uint8Array): Point {
  const x = fromBeBytes32(b),
    y = fromBeBytes32(b, 32);
  const { G1 } = requireCurve();
  return x === 0n && y === 0n ? G1.ZERO : G1.fromAffine({ x, y });
}

/** Points from their projective X, Y, Z words (the identity: Z = 0). */
function unpackProjective({ words, z }: { words: Uint32Array; z: Uint32Array }): Point[] {
  const { G1 } = requireCurve();
  return Array.from({ length: z.length / 8 }, (_, i) => {
    const zi = fromLimbs(z, 8 * i);
    return zi === 0n ? G1.ZERO : new G1(fromLimbs(words, 16 * i), fromLimbs(words, 16 * i + 8), zi);
  });
}

/** Hooks the client gives encodeArgs: its handles' ids, the job's signal and callback slots. */
export interface ArgHooks {
  /** The worker id of a handle this client made, 'foreign' for another prover's, undefined for anything else. */
  handleId(v: object): number | 'foreign' | undefined;
  /** Record the challengers passed, to write their new state back after the call. */
  challengers: DuplexChallenger[];
  /** The job's AbortSignal and progress callback, taken out of the arguments. */
  signal?: AbortSignal;
  onProgress?: (p: unknown) => void;
}

/** The caller's arguments as clonable data (client side). */
export function encodeArgs(args: readonly unknown[], hooks: ArgHooks): unknown[] {
  return args.map((a) => encode(a, hooks, 0));
}

function encode(v: unknown, hooks: ArgHooks, depth: number): unknown {
  if (typeof v === 'symbol') return { $symbol: v.description ?? null };
  if (typeof v === 'function') return { $function: true };
  if (typeof v !== 'object' || v === null) return v;
  if (ArrayBuffer.isView(v)) {
    // A view of a transferred (detached) buffer cannot be cloned; it reads as empty in-thread.
    const detached =
      (v.buffer as ArrayBuffer & { detached?: boolean }).detached === true || (v.byteLength === 0 && v.buffer.byteLength === 0);
    return detached ? { $detached: Object.prototype.toString.call(v).slice(8, -1) } : v;
  }
  const id = hooks.handleId(v);
  if (id === 'foreign')
    throw new ProverError(
      'INVALID_ARGUMENT',
      'this handle belongs to another prover; pass it to the prover that made it, or read() it and pass the values',
    );
  if (id !== undefined) return { $h: id };
  if (v instanceof DuplexChallenger) {
    hooks.challengers.push(v);
    return { $challenger: v.snapshot(), slot: hooks.challengers.length - 1 };
  }
  const G1 = curve?.G1;
  if (G1 && v instanceof G1) return { $point: packPoint(v) };
  if (Array.isArray(v)) {
    if (G1 && depth === 0 && v.length > 0 && denseOf(v, (p) => p instanceof G1)) {
      const ps = v as Point[];
      if (!allAffine(ps)) {
        const { words, z } = projectiveWords(ps);
        return { $projective: { words, z: z! } };
      }
      // Every point affine (or the identity): packed as msm() takes points, with no inversion.
      const out = new Uint8Array(64 * ps.length);
      ps.forEach((p, i) => packPoint(p, out, 64 * i));
      return { $points: out };
    }
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) if (Object.hasOwn(v, i)) out[i] = encode(v[i], hooks, depth + 1);
    return out;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype || depth > 2) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (depth === 0 && k === 'signal' && isSignal(x)) {
      hooks.signal = x;
      out[k] = { $signal: true };
    } else if (depth === 0 && k === 'onProgress' && typeof x === 'function') {
      hooks.onProgress = x as (p: unknown) => void;
      out[k] = { $progress: true };
    } else {
      out[k] = encode(x, hooks, depth + 1);
    }
  }
  const symbols = Object.getOwnPropertySymbols(v);
  if (symbols.length) out.$symbolKeys = symbols.map((s) => s.description ?? null);
  return out;
}

function denseOf(v: unknown[], test: (x: unknown) => boolean): boolean {
  for (let i = 0; i < v.length; i++) if (!Object.hasOwn(v, i) || !test(v[i])) return false;
  return true;
}

/** Hooks the worker gives decodeArgs: its handle table and the job's own signal and callback. */
export interface DecodeHooks {
  handle(id: number): unknown;
  signal: AbortSignal;
  onProgress?: (p: unknown) => void;
  challengers: DuplexChallenger[];
}

/** The arguments as the in-thread prover takes them (worker side). */
export function decodeArgs(args: readonly unknown[], hooks: DecodeHooks): unknown[] {
  return args.map((a) => decode(a, hooks));
}

function decode(v: unknown, hooks: DecodeHooks): unknown {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) return v;
  const t = v as Record<string, unknown>;
  if (isTag(v, '$h')) return hooks.handle(t.$h as number);
  // Packed points go to msm() as they are: the same GPU curve check, the same identity (zeros).
  if (isTag(v, '$points')) return t.$points;
  if (isTag(v, '$point')) return unpackPoint(t.$point as Uint8Array);
  if (isTag(v, '$projective')) return unpackProjective(t.$projective as { words: Uint32Array; z: Uint32Array });
  if (isTag(v, '$challenger')) {
    const c = DuplexChallenger.fromSnapshot(t.$challenger as ChallengerState);
    hooks.challengers[t.slot as number] = c;
    return c;
  }
  if (isTag(v, '$signal')) return hooks.signal;
  if (isTag(v, '$progress')) return hooks.onProgress ?? (() => {});
  if (isTag(v, '$symbol')) return Symbol((t.$symbol as string | null) ?? undefined);
  if (isTag(v, '$function')) return () => {};
  if (isTag(v, '$detached')) return detachedView(t.$detached as string);
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) if (Object.hasOwn(v, i)) out[i] = decode(v[i], hooks);
    return out;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return v;
  const out: Record<string | symbol, unknown> = {};
  for (const k of Object.keys(v)) if (k !== '$symbolKeys') out[k] = decode(t[k], hooks);
  for (const d of (t.$symbolKeys as (string | null)[] | undefined) ?? []) out[Symbol(d ?? undefined)] = true;
  return out;
}

/** A view of the named type on a detached buffer: length 0, as the caller's was. */
function detachedView(type: string): ArrayBufferView {
  const Ctor = (globalThis as unknown as Record<string, new (n: number) => ArrayBufferView>)[type];
  const v = typeof Ctor === 'function' ? new Ctor(0) : new Uint32Array(0);
  structuredClone(v.buffer, { transfer: [v.buffer] });
  return v;
}
