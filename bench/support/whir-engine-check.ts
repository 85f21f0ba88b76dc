/**
 * The GPU sumcheck engine (src/whir/gpu-engine.ts) against CpuSumcheckEngine, call for call, on
 * seeded random tables, through the sequence the WHIR prover makes: evaluations at several
 * points (OOD and opening claims), eq claims with α powers, rounds of roundMessage/bind with
 * random r, evals(), eq + select claims with γ powers, more rounds, evals(). Every output (values,
 * messages, sums, tables) must be equal. Configurations: the GPU throughout (cpuMaxVars -1), and
 * the default, which hands tables of 2^10 or fewer to the CPU after a bind. Also: TOO_LARGE past
 * the device's binding limit; the round commit from the engine's buffer; the table commit kept for
 * the engine (commitTable). Run by the `whir-engine-check` mode (test/e2e/whir-engine.spec.ts).
 * @module
 */
import type { GpuContext } from '../../src/gpu/context.js';
import { isProverError } from '../../src/errors.js';
import { CpuSumcheckEngine, type SumcheckEngine } from '../../src/whir/engine.js';
import { efEquals, efGet, efPowers, type EfVec, type Ext4 } from '../../src/whir/ext.js';
import { gpuSumcheckEngine, GpuSumcheckEngine, type GpuEngineOptions } from '../../src/whir/gpu-engine.js';
import { commitEngineEvals, commitTable } from '../../src/whir/gpu-commit.js';
import { Scheduler } from '../../src/sched/scheduler.js';
import { encodeToGpu } from '../../src/kernels/ntt/record.js';
import { planMerkle } from '../../src/kernels/merkle.js';
import { commitOnGpu, type MerkleTree } from '../../src/api/merkle.js';
import { domainPoint, expandFromUnivariate } from '../../src/whir/multilinear.js';
import { SplitMix64 } from './splitmix.js';
import type { CheckRow } from './poseidon2-check.js';

const ext = (rng: SplitMix64): Ext4 => Array.from(rng.fieldArray(4)) as Ext4;
const fmt = (a: Ext4) => `[${a.join(',')}]`;

function firstDiff(a: EfVec, b: EfVec): string | null {
  if (a.length !== b.length) return `length ${a.length} vs ${b.length}`;
  for (let i = 0; i < a.length; i += 4) {
    if (!efEquals(efGet(a, i / 4), efGet(b, i / 4))) return `element ${i / 4}: ${fmt(efGet(a, i / 4))} vs CPU ${fmt(efGet(b, i / 4))}`;
  }
  return null;
}

/** Both engines side by side; each step compares and records the first difference. */
class Pair {
  readonly bad: string[] = [];
  steps = 0;
  constructor(
    readonly gpu: SumcheckEngine,
    readonly cpu: SumcheckEngine,
  ) {}

  private same(what: string, g: Ext4, c: Ext4): void {
    this.steps++;
    if (!efEquals(g, c)) this.bad.push(`${what}: GPU ${fmt(g)} vs CPU ${fmt(c)}`);
  }

  async evaluate(what: string, point: Ext4[]): Promise<Ext4> {
    const [g, c] = [await this.gpu.evaluate(point), await this.cpu.evaluate(point)];
    this.same(`evaluate ${what}`, g, c);
    return c;
  }

  async addClaims(
    what: string,
    eq: Parameters<SumcheckEngine['addClaims']>[0],
    sel: Parameters<SumcheckEngine['addClaims']>[1],
  ): Promise<void> {
    await this.gpu.addClaims(eq, sel);
    await this.cpu.addClaims(eq, sel);
    this.same(`sum after ${what}`, this.gpu.sum, this.cpu.sum);
  }

  async rounds(what: string, k: number, rng: SplitMix64): Promise<void> {
    for (let i = 0; i < k; i++) {
      const [g, c] = [await this.gpu.roundMessage(), await this.cpu.roundMessage()];
      this.same(`${what} round ${i} h(0)`, g[0], c[0]);
      this.same(`${what} round ${i} h(inf)`, g[1], c[1]);
      const r = ext(rng);
      await this.gpu.bind(c, r);
      await this.cpu.bind(c, r);
      this.same(`${what} round ${i} sum`, this.gpu.sum, this.cpu.sum);
      this.steps++;
      if (this.gpu.numVariables !== this.cpu.numVariables)
        this.bad.push(`${what} round ${i}: ${this.gpu.numVariables} variables vs CPU ${this.cpu.numVariables}`);
    }
  }

  async evals(what: string): Promise<void> {
    this.steps++;
    const d = firstDiff(await this.gpu.evals(), await this.cpu.evals());
    if (d) this.bad.push(`evals ${what}: ${d}`);
  }
}

/** One engine run at 2^m values: the WHIR open sequence, compared step by step. */
export async function checkEngineAt(
  ctx: GpuContext,
  m: number,
  options: GpuEngineOptions,
  label: string,
  seed = 0x5c0 + m,
): Promise<CheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const table = rng.fieldArray(2 ** m);
  const pair = new Pair(await gpuSumcheckEngine(ctx, options)(table), new CpuSumcheckEngine(table.slice()));
  try {
    // Commitment OOD and opening claims at expand(z, m), and one arbitrary point.
    const points = [expandFromUnivariate(ext(rng), m), expandFromUnivariate(ext(rng), m), Array.from({ length: m }, () => ext(rng))];
    const values: Ext4[] = [];
    for (const [i, p] of points.entries()) values.push(await pair.evaluate(`initial ${i}`, p));
    const alphas = efPowers(ext(rng), points.length);
    await pair.addClaims(
      'initial eq claims',
      points.map((point, i) => ({ point, coeff: alphas[i], value: values[i] })),
      [],
    );
    const k0 = Math.min(m, 3);
    await pair.rounds('initial', k0, rng);
    const m1 = m - k0;
    await pair.evals(`after ${k0} rounds`);
    if (m1 >= 1) {
      const ood = expandFromUnivariate(ext(rng), m1);
      const oodValue = await pair.evaluate('round OOD', ood);
      const selects = Math.min(2 ** (m1 + 1), 200);
      const gammas = efPowers(ext(rng), 2 + selects);
      const logDomain = m1 + 2;
      await pair.addClaims(
        'round eq + select claims',
        [{ point: ood, coeff: gammas[1], value: oodValue }],
        Array.from({ length: selects }, (_, j) => ({
          x: domainPoint(logDomain, Number(rng.next() % BigInt(2 ** logDomain))),
          coeff: gammas[2 + j],
          value: ext(rng),
        })),
      );
      const k1 = Math.min(m1, 4);
      await pair.rounds('round 1', k1, rng);
      await pair.evals(`after ${k0 + k1} rounds`);
      if (m1 - k1 >= 1)
        await pair.evaluate(
          'final',
          Array.from({ length: m1 - k1 }, () => ext(rng)),
        );
    }
  } finally {
    pair.gpu.dispose();
    pair.cpu.dispose();
  }
  const ok = pair.bad.length === 0;
  return {
    step: `whir engine 2^${m} ${label}`,
    ok,
    n: pair.steps,
    ms: performance.now() - t0,
    detail: ok ? `${pair.steps} outputs equal CpuSumcheckEngine` : pair.bad.slice(0, 3).join('; '),
  };
}

/** A device that binds only `bytes` per storage buffer refuses larger tables with TOO_LARGE. */
export async function checkEngineTooLarge(ctx: GpuContext, bytes = 2 ** 16): Promise<CheckRow> {
  const t0 = performance.now();
  const limits = new Proxy(ctx.limits, { get: (t, k) => (k === 'maxStorageBufferBindingSize' ? bytes : Reflect.get(t, k)) });
  const small = Object.create(ctx, { limits: { value: limits } }) as GpuContext;
  const m = Math.log2(bytes / 16) + 1;
  let detail = 'no error';
  try {
    (await gpuSumcheckEngine(small)(new Uint32Array(2 ** m))).dispose();
  } catch (e) {
    detail = isProverError(e) ? `${e.code}: ${e.message}` : String(e);
  }
  return { step: 'whir engine past the binding limit', ok: detail.startsWith('TOO_LARGE'), n: 1, ms: performance.now() - t0, detail };
}

/**
 * The round commit from the engine's GPU buffer (commitEngineEvals) equals the commit of its
 * evals() read back (the path prover.ts takes): root, and one opened row with its path.
 */
export async function checkEngineCommit(ctx: GpuContext, m = 9, k = 2, addedBits = 1, seed = 0xc0): Promise<CheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const engine = await gpuSumcheckEngine(ctx, { cpuMaxVars: -1 })(rng.fieldArray(2 ** m));
  const sched = new Scheduler(ctx);
  const bad: string[] = [];
  try {
    await engine.addClaims([{ point: Array.from({ length: m }, () => ext(rng)), coeff: ext(rng), value: ext(rng) }], []);
    for (let i = 0; i < k; i++) await engine.bind(await engine.roundMessage(), ext(rng));
    const width = 4 * 2 ** k;
    const fromGpu = await commitEngineEvals(ctx, sched, engine as GpuSumcheckEngine, width, addedBits);
    const host = await engine.evals();
    const fromHost = await hostCommit(ctx, sched, host, width, addedBits);
    if (!fromGpu) bad.push('commitEngineEvals returned null with the tables on the GPU');
    else {
      if (fromGpu.root.join() !== fromHost.root.join()) bad.push(`root ${fromGpu.root.join()} vs host path ${fromHost.root.join()}`);
      const [a, b] = [await fromGpu.tree.open(5), await fromHost.tree.open(5)];
      if (a.row.join() !== b.row.join() || a.siblings.map((d) => d.join()).join() !== b.siblings.map((d) => d.join()).join())
        bad.push('opening 5 differs');
      fromGpu.tree.dispose();
    }
    fromHost.tree.dispose();
  } finally {
    engine.dispose();
  }
  return {
    step: 'whir engine round commit from the GPU buffer',
    ok: bad.length === 0,
    n: 1,
    ms: performance.now() - t0,
    detail: bad.length
      ? bad.join('; ')
      : `2^${m - k} values as rows of ${4 * 2 ** k}, blow-up 2^${addedBits}: root and opening equal the evals() path`,
  };
}

/** prover.commit's path from a host array: encode + Merkle, one submission. */
function hostCommit(
  ctx: GpuContext,
  sched: Scheduler,
  host: Uint32Array,
  width: number,
  addedBits: number,
): Promise<{ root: Uint32Array; tree: MerkleTree }> {
  return sched.run('host commit', {}, async () => {
    const enc = ctx.device.createCommandEncoder();
    const codeword = await encodeToGpu(ctx, host, width, addedBits, { encoder: enc });
    const plan = await planMerkle(ctx, codeword.buffer, (host.length / width) * 2 ** addedBits, width, () => codeword.release());
    return commitOnGpu(ctx, sched, plan, enc);
  });
}

/**
 * WHIR's table commit (commitTable) keeps its upload for the engine: its root equals the host
 * path's, an engine started from the kept table matches CpuSumcheckEngine (evals() before the
 * first bind included: read back from the kept buffer), and the table is unchanged afterwards
 * (engines only read it; a CPU retry reads it back).
 */
export async function checkKeptTable(ctx: GpuContext, m = 12, width = 16, addedBits = 1, seed = 0x7ab): Promise<CheckRow> {
  const t0 = performance.now();
  const rng = new SplitMix64(seed);
  const table = rng.fieldArray(2 ** m);
  const sched = new Scheduler(ctx);
  const kept = await commitTable(ctx, sched, table, width, addedBits, {});
  const fromHost = await hostCommit(ctx, sched, table, width, addedBits);
  const bad: string[] = [];
  if (kept.root.join() !== fromHost.root.join()) bad.push(`root ${kept.root.join()} vs host path ${fromHost.root.join()}`);
  kept.tree.dispose();
  fromHost.tree.dispose();
  const pair = new Pair(await gpuSumcheckEngine(ctx, { cpuMaxVars: -1 })(kept.table), new CpuSumcheckEngine(table.slice()));
  try {
    await pair.evals('before the first bind');
    const point = Array.from({ length: m }, () => ext(rng));
    const value = await pair.evaluate('kept table', point);
    await pair.addClaims('eq claim', [{ point, coeff: ext(rng), value }], []);
    await pair.rounds('kept table', 3, rng);
    await pair.evals('after 3 rounds');
  } finally {
    pair.gpu.dispose();
    pair.cpu.dispose();
  }
  bad.push(...pair.bad);
  const after = await kept.table.read();
  kept.table.release();
  if (after.join() !== table.join()) bad.push('the kept table changed while the engine used it');
  return {
    step: `whir table commit kept for the engine 2^${m}`,
    ok: bad.length === 0,
    n: pair.steps + 2,
    ms: performance.now() - t0,
    detail: bad.length
      ? bad.slice(0, 3).join('; ')
      : `root equals the host path's; ${pair.steps} engine outputs equal CpuSumcheckEngine; table unchanged`,
  };
}

/** Sizes of the check: 2^1 .. 2^13 on the GPU throughout, and with the default CPU handoff where it happens (2^11, 2^13). */
export const ENGINE_SIZES = [1, 2, 5, 8, 11, 13];

export async function checkWhirEngine(ctx: GpuContext, sizes = ENGINE_SIZES): Promise<CheckRow[]> {
  const rows: CheckRow[] = [];
  for (const m of sizes) rows.push(await checkEngineAt(ctx, m, { cpuMaxVars: -1 }, 'GPU throughout'));
  for (const m of sizes.filter((s) => s > 10)) rows.push(await checkEngineAt(ctx, m, {}, 'handing off to the CPU at 2^10'));
  rows.push(await checkEngineTooLarge(ctx));
  rows.push(await checkEngineCommit(ctx));
  rows.push(await checkKeptTable(ctx));
  return rows;
}
