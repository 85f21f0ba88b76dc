/**
 * The WHIR sumcheck engine on a real GPU (`node bench/dist/whir-engine.mjs` after `npm run
 * bench:bundle`, Node + Dawn on the GPU machine): GpuSumcheckEngine against CpuSumcheckEngine for
 * one full initial phase of a WHIR open (make the engine, addClaims with 3 eq claims, 4 rounds of
 * roundMessage/bind, evals()) at 2^16..2^22 values, results checked equal before any timing.
 * Then single rounds (roundMessage + bind) at 2^6..2^14, GPU throughout against the CPU: where the
 * GPU engine starts to pay (GPU_ENGINE_CPU_MAX_VARS). One JSON line per row; GPU times are
 * medians of 5 after a warm-up, and each phase row carries its bound from memory traffic at the
 * copy bandwidth roofline.mjs measures in the same run.
 *   WHIR_ENGINE_SIZES=16,18  pick the phase sizes (log2)
 * @module
 */
import { create, globals } from 'webgpu';
import { GpuContext } from '../src/gpu/context.js';
import { BB_P } from '../src/params/babybear.js';
import { cpuSumcheckEngine, type EqClaim, type SumcheckEngineFactory } from '../src/whir/engine.js';
import { efEquals, efGet, type EfVec, type Ext4 } from '../src/whir/ext.js';
import { gpuSumcheckEngine } from '../src/whir/gpu-engine.js';
import { expandFromUnivariate } from '../src/whir/multilinear.js';
import type { RoundMessage } from '../src/whir/sumcheck.js';
import { median } from './support/stats.js';
import { roofline, warmUp } from './node-gpu.js';

Object.assign(globalThis, globals);
const gpu = create([]) as GPU;
(globalThis as { __dawnGpu?: GPU }).__dawnGpu = gpu;
const emit = (r: Record<string, unknown>) => console.log(JSON.stringify(r));

let seed = 12345;
const word = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % BB_P;
const values = (n: number) => Uint32Array.from({ length: n }, word);
const ext = (): Ext4 => [word(), word(), word(), word()];

const ROUNDS = 4;
const REPS = 5;

interface PhaseOut {
  messages: RoundMessage[];
  evals: EfVec;
  sum: Ext4;
}

/** The initial phase of an open on `factory`'s engine. */
async function phase(factory: SumcheckEngineFactory, table: Uint32Array, claims: EqClaim[], rs: Ext4[]): Promise<PhaseOut> {
  const engine = await factory(table);
  try {
    await engine.addClaims(claims, []);
    const messages: RoundMessage[] = [];
    for (const r of rs) {
      const msg = await engine.roundMessage();
      messages.push(msg);
      await engine.bind(msg, r);
    }
    return { messages, evals: await engine.evals(), sum: engine.sum };
  } finally {
    engine.dispose();
  }
}

function sameOut(a: PhaseOut, b: PhaseOut): boolean {
  if (!efEquals(a.sum, b.sum) || a.evals.length !== b.evals.length) return false;
  if (!a.messages.every((m, i) => efEquals(m[0], b.messages[i][0]) && efEquals(m[1], b.messages[i][1]))) return false;
  for (let i = 0; i < a.evals.length / 4; i++) if (!efEquals(efGet(a.evals, i), efGet(b.evals, i))) return false;
  return true;
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; out: T }> {
  const t0 = performance.now();
  const out = await f();
  return { ms: performance.now() - t0, out };
}

/** Bytes the phase's passes move at least (16 B per extension value, 4 per base value). */
function phaseBytes(m: number): number {
  const n = 2 ** m;
  let bytes = 4 * n + 32 * n; // upload of the base table; claims read and write the weights
  bytes += 20 * n + 16 * n; // first bind: base evals and weights in, half of each out as extension values
  for (let k = 1; k < ROUNDS; k++) bytes += 48 * (n >> k); // ext binds: 2 tables of n>>k in, n>>(k+1) out
  return bytes + 32 * (n >> ROUNDS); // evals: from_monty in and out
}

const ctx = await GpuContext.create(gpu);
const limit = await roofline(ctx.device, gpu);
emit({ bench: 'whir-engine-device', adapter: ctx.description, copyGBs: limit.copyGBs, montGmuls: limit.montGmuls });
const gpuFactory = gpuSumcheckEngine(ctx, { cpuMaxVars: -1 });
const cpuFactory: SumcheckEngineFactory = cpuSumcheckEngine;

const sizes = (process.env.WHIR_ENGINE_SIZES ?? '16,18,20,22').split(',').map(Number);
let ok = true;
for (const m of sizes) {
  const table = values(2 ** m);
  const claims: EqClaim[] = Array.from({ length: 3 }, () => ({ point: expandFromUnivariate(ext(), m), coeff: ext(), value: ext() }));
  const rs = Array.from({ length: ROUNDS }, ext);
  const cold = await timed(() => phase(gpuFactory, table, claims, rs));
  const cpu = await timed(() => phase(cpuFactory, table, claims, rs));
  const equal = sameOut(cold.out, cpu.out);
  ok &&= equal;
  if (!equal) {
    emit({ bench: 'whir-engine-phase', m, ok: false, detail: 'GPU and CPU engines differ' });
    continue;
  }
  await warmUp(() => phase(gpuFactory, table, claims, rs));
  const times: number[] = [];
  for (let i = 0; i < REPS; i++) times.push((await timed(() => phase(gpuFactory, table, claims, rs))).ms);
  const gpuMs = median(times);
  const boundMs = limit.copyGBs === null ? null : phaseBytes(m) / (limit.copyGBs * 1e6);
  emit({
    bench: 'whir-engine-phase',
    m,
    ok: true,
    rounds: ROUNDS,
    eqClaims: 3,
    cpuMs: +cpu.ms.toFixed(2),
    gpuMs: +gpuMs.toFixed(3),
    gpuFirstMs: +cold.ms.toFixed(2),
    speedup: +(cpu.ms / gpuMs).toFixed(1),
    memBoundMs: boundMs === null ? null : +boundMs.toFixed(4),
    ofMemBound: boundMs === null ? null : +(boundMs / gpuMs).toFixed(4),
  });
}

// Single rounds after the first bind (extension tables), GPU throughout vs CPU: the crossover.
for (let m = 6; m <= 14; m += 1) {
  const table = values(2 ** (m + 1));
  const claims: EqClaim[] = [{ point: expandFromUnivariate(ext(), m + 1), coeff: ext(), value: ext() }];
  // Each rep: a fresh engine at 2^(m+1), its claims and first bind untimed, then one timed round at 2^m.
  const round = async (factory: SumcheckEngineFactory) => {
    const times: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const engine = await factory(table);
      await engine.addClaims(claims, []);
      await engine.bind(await engine.roundMessage(), ext());
      const t0 = performance.now();
      await engine.bind(await engine.roundMessage(), ext());
      times.push(performance.now() - t0);
      engine.dispose();
    }
    return median(times);
  };
  await round(gpuFactory); // warm
  const gpuMs = await round(gpuFactory);
  const cpuMs = await round(cpuFactory);
  emit({ bench: 'whir-engine-round', m, cpuMs: +cpuMs.toFixed(3), gpuMs: +gpuMs.toFixed(3), gpuFaster: gpuMs < cpuMs });
}
ctx.destroy();
emit({ bench: 'whir-engine-done', ok });
if (!ok) process.exitCode = 1;
