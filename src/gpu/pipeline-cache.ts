/**
 * Compute pipelines cached by (kernel, entry point, plan constants, overrides): the same job shape
 * compiles once per device. Each shader module holds one entry point's closure (kernelSource with
 * an entry: wgsl-shake.ts), and modules are shared by their text, so plan constants the entry point
 * never reads do not make a new module. Compilation is async so a page stays responsive while Tint
 * and the driver work (hundreds of ms for the larger kernels on mobile GPUs), and callers request
 * every pipeline a plan needs at once (`all`) so the driver compiles them side by side.
 * @module
 */
import type { KernelName } from '../wgsl/kernels.gen.js';
import { kernelSource, loadKernel, type PlanConsts } from './wgsl.js';
import { nextTask } from './next-task.js';
import type { FieldName } from '../params/fields.js';

/** Binding kinds in binding order (0, 1, 2, ...) of bind group 0. */
export type BindingKind = 'read-only-storage' | 'storage' | 'uniform';

/** What this device has compiled: the cold-start cost a first call pays. */
export interface CompileStats {
  /** shader modules created */
  modules: number;
  /** characters of WGSL in them */
  wgslChars: number;
  /** pipelines created (resolved or in flight) */
  pipelines: number;
  /** milliseconds from each pipeline's request to its resolution, summed (parallel compiles overlap) */
  pipelineMs: number;
}

/** Which of a kernel's two pipeline sets a job runs (PipelineCache.fastOrQuick). */
export type Speed = 'fast' | 'quick';

/** One pipeline a plan needs, as PipelineCache.get takes it. */
export interface PipelineRequest {
  kernel: KernelName;
  entryPoint: string;
  plan?: PlanConsts;
  bindings?: readonly BindingKind[];
  /** WGSL `override` values: one module serves every value */
  overrides?: Readonly<Record<string, number>>;
  /** The 31-bit field whose constants (BB_P, BB_MU, ...) the module is built with; default BabyBear. */
  field?: FieldName;
  /**
   * Handed to the driver before the other requests of the same `all` call, whatever their size:
   * what a first call waits on while the rest compile (the MSM's quick engine, kernels/msm/engines.ts).
   */
  first?: boolean;
}

/** Trivial pipelines `prime` compiles at once (on the H100 host 1 left later compiles one at a time; 4 did not). */
const PRIME_PIPELINES = 4;

/** A request's module: its label (the plan key), its text and the text's number. */
interface Source {
  planKey: string;
  code: string;
  id: number;
}

export class PipelineCache {
  private pipelines = new Map<string, Promise<GPUComputePipeline>>();
  private modules = new Map<number, GPUShaderModule>();
  /**
   * kernelSource by plan key (tree-shaking runs once per kernel, entry point and constants), with
   * its text's number in `textIds`: pipelines are keyed by that number, not by the 5-40 K
   * characters themselves, which a Map lookup would hash on every call (~0.05 ms a small NTT).
   */
  private sources = new Map<string, { code: string; id: number }>();
  private textIds = new Map<string, number>();
  private layouts = new Map<string, GPUBindGroupLayout>();
  private compiled: CompileStats = { modules: 0, wgslChars: 0, pipelines: 0, pipelineMs: 0 };
  /** keys of the pipelines whose compile has finished */
  private readonly ready = new Set<string>();
  /** Settles when every call holdBackground was given has: gated builds wait for it too (unheld). */
  private held: Promise<unknown> = Promise.resolve();

  /**
   * `onWait` runs when a caller must wait for a compile (a pipeline not ready yet): GpuContext
   * reports it as the running job's 'compiling' progress stage.
   */
  constructor(
    private readonly device: GPUDevice,
    private readonly onWait?: () => void,
  ) {}

  /**
   * Compile PRIME_PIPELINES trivial pipelines side by side, in the background (GpuContext.create
   * calls it; nothing waits for it). On the H100's host (Node, Dawn, NVIDIA's Vulkan driver) a
   * fresh device compiled two pipelines requested together one after the other, a first MSM's two
   * (the quick kernel ready at 0.52-0.60 s, the bases' conversion at 0.85-1.01 s), but side by side
   * after a few concurrent compiles had run on it (both ready by 0.50-0.68 s): 2026-11-26, bc3e3ba,
   * H100 (`git show bc3e3ba:bench/RESULTS.md`, cold). The trivial ones take ~30 ms of compile threads.
   */
  prime(): void {
    for (let i = 0; i < PRIME_PIPELINES; i++) {
      // Distinct text each, so none is served from a cache of another.
      const code = `@group(0) @binding(0) var<storage, read_write> v: array<u32>;
@compute @workgroup_size(64) fn prime(@builtin(global_invocation_id) g: vec3u) { v[g.x] = v[g.x] * ${i + 3}u + 1u; }`;
      try {
        const module = this.device.createShaderModule({ code, label: `prime ${i}` });
        this.device
          .createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'prime' }, label: `prime ${i}` })
          .catch(() => {});
      } catch {
        return; // a device that cannot even take these (lost): the first real compile reports
      }
    }
  }

  /**
   * Hold the builds gated behind `first` requests (an MSM walker's, behind the quick engine) until
   * `call` settles too: creating their modules parses ~160 K characters of WGSL on the caller's
   * thread (~120 ms on the H100's host), which sat between a first MSM's compiles and its result.
   * A job that needs one of them now builds it at once (handOver).
   */
  holdBackground(call: Promise<unknown>): void {
    this.held = Promise.allSettled([this.held, call]);
  }

  /** Settles once every call holdBackground was given has, those given while waiting included. */
  private async unheld(): Promise<void> {
    for (let h = this.held; ; h = this.held) {
      await h;
      if (h === this.held) return;
    }
  }

  static key(kernel: string, entryPoint: string, plan: PlanConsts): string {
    const consts = Object.keys(plan)
      .sort()
      .map((k) => `${k}=${plan[k]}`)
      .join(',');
    return `${kernel}#${entryPoint}{${consts}}`;
  }

  /**
   * An explicit bind group layout. Kernels whose entry points use different subsets of the
   * module's bindings need one: 'auto' layouts drop bindings an entry point does not touch.
   */
  layout(bindings: readonly BindingKind[]): GPUBindGroupLayout {
    const key = bindings.join(',');
    let layout = this.layouts.get(key);
    if (!layout) {
      layout = this.device.createBindGroupLayout({
        label: key,
        entries: bindings.map((type, binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } })),
      });
      this.layouts.set(key, layout);
    }
    return layout;
  }

  /**
   * The pipeline for `entryPoint` of `kernel`; with `bindings`, its group 0 uses layout(bindings).
   * Pipelines are keyed by their module's text, not by the plan constants: a constant the entry
   * point never reads (a segment length the fix-up ignores) makes no second pipeline. The kernel's
   * family module is loaded first (its first pipeline waits for that chunk).
   */
  async get(
    kernel: KernelName,
    entryPoint: string,
    plan: PlanConsts = {},
    bindings?: readonly BindingKind[],
    overrides?: Readonly<Record<string, number>>,
    ahead = false,
    field: FieldName = 'babybear',
  ): Promise<GPUComputePipeline> {
    const [pipeline] = await this.all([{ kernel, entryPoint, plan, bindings, overrides, field }], ahead);
    return pipeline;
  }

  /** The module text of an entry point under plan constants and a field's constants (its family loaded), and its label. */
  private source(r: PipelineRequest): Source {
    const field = r.field ?? 'babybear';
    const planKey = PipelineCache.planKey(r);
    let src = this.sources.get(planKey);
    if (src === undefined) {
      const code = kernelSource(r.kernel, r.plan ?? {}, r.entryPoint, field);
      let id = this.textIds.get(code);
      if (id === undefined) this.textIds.set(code, (id = this.textIds.size));
      src = { code, id };
      this.sources.set(planKey, src);
    }
    return { planKey, ...src };
  }

  /** A request's module label: kernel, entry point, plan constants and (other than BabyBear) field. */
  private static planKey(r: PipelineRequest): string {
    const field = r.field ?? 'babybear';
    return PipelineCache.key(r.kernel, r.entryPoint, r.plan ?? {}) + (field === 'babybear' ? '' : `@${field}`);
  }

  /** A pipeline's key: its module text's number, entry point, layout and overrides. */
  private pipelineKey(r: PipelineRequest, { id }: Source): string {
    return `${id}\n${r.entryPoint}[${r.bindings?.join(',') ?? 'auto'}]${r.overrides ? PipelineCache.key('', '', r.overrides) : ''}`;
  }

  /** The pipeline of `r` whose module text is `code`: cached, or requested now; `ready` if its compile has finished. */
  private build(r: PipelineRequest, { planKey, code, id }: Source): { pipeline: Promise<GPUComputePipeline>; ready: boolean } {
    const key = this.pipelineKey(r, { planKey, code, id });
    const { entryPoint, bindings, overrides } = r;
    let p = this.pipelines.get(key);
    if (!p) {
      let module = this.modules.get(id);
      if (!module) {
        module = this.device.createShaderModule({ code, label: planKey });
        this.modules.set(id, module);
        this.compiled.modules++;
        this.compiled.wgslChars += code.length;
      }
      const layout = bindings ? this.device.createPipelineLayout({ bindGroupLayouts: [this.layout(bindings)] }) : 'auto';
      const t0 = performance.now();
      const compute: GPUProgrammableStage = overrides ? { module, entryPoint, constants: overrides } : { module, entryPoint };
      p = this.device.createComputePipelineAsync({ layout, compute, label: planKey });
      this.compiled.pipelines++;
      p.then(
        () => {
          this.compiled.pipelineMs += performance.now() - t0;
          this.ready.add(key);
        },
        () => {
          // A failed compile must not poison the cache: drop it so the next call retries and reports.
          this.pipelines.delete(key);
          this.compiled.pipelines--;
        },
      );
      this.pipelines.set(key, p);
    }
    return { pipeline: p, ready: this.ready.has(key) };
  }

  /**
   * Every pipeline of `requests`, requested together so the driver compiles them in parallel.
   * `ahead`: compiling ahead of need (warm-up, a first call's prefetch), which no job waits for.
   */
  async all(requests: readonly PipelineRequest[], ahead = false): Promise<GPUComputePipeline[]> {
    return Promise.all(await this.handOver(requests, ahead));
  }

  /**
   * Compile ahead of need: resolves once every request is in the driver's hands (its kernel
   * family loaded, its pipeline requested), not when compiled. A first call awaits this before its
   * own host work, which would otherwise hold the thread the requests wait for (a first MSM's
   * point encoding held them ~0.4 s).
   */
  async request(requests: readonly PipelineRequest[]): Promise<void> {
    for (const p of await this.handOver(requests, true)) p.catch(() => {}); // reported by the job that needs it
  }

  /** Request every pipeline of `requests` (families loaded first); their promises, in order. */
  private async handOver(requests: readonly PipelineRequest[], ahead: boolean): Promise<Promise<GPUComputePipeline>[]> {
    await Promise.all([...new Set(requests.map((r) => r.kernel))].map(loadKernel));
    const out: Promise<GPUComputePipeline>[] = new Array(requests.length);
    let waits = false;
    // Dawn compiles on a few worker threads, first come first served: the largest modules go
    // first so the longest compiles (an MSM walker: ~2 s on the H100's host) start at once
    // instead of queueing behind small ones; requests marked `first` go before all of them, in
    // the order given (a first proof needs its key's conversions before its proof's kernels: by
    // size, the bases' conversion was ready 6th of 8, at 0.7-0.9 s on the H200's host).
    const start = (ids: number[], bySize: boolean): Map<number, Promise<GPUComputePipeline>> => {
      const sources = new Map(ids.map((i) => [i, this.source(requests[i])]));
      const built = new Map<number, Promise<GPUComputePipeline>>();
      const order = bySize ? [...ids].sort((a, b) => sources.get(b)!.code.length - sources.get(a)!.code.length) : ids;
      for (const i of order) {
        const { pipeline, ready } = this.build(requests[i], sources.get(i)!);
        built.set(i, pipeline);
        waits ||= !ready;
      }
      return built;
    };
    const firsts = requests.flatMap((r, i) => (r.first ? [i] : []));
    const rest = requests.flatMap((r, i) => (r.first ? [] : [i]));
    const firstBuilt = start(firsts, false);
    // Ahead of need, the `first` ones compile alone before the rest are handed over, so the rest
    // (an MSM walker's ten) take no compile thread ahead of them: on an unprimed device the H100
    // host's driver compiled two pipelines one after the other (bench/RESULTS.md cold; `prime`).
    // Their texts are tree-shaken behind the gate too (the walker's ten took ~50 ms of the thread
    // before the quick engine's request went out). A later request that needs one of the rest now
    // (not ahead) builds it at once.
    // Gated, they go one per macrotask: their texts' shaking and their modules' parsing (~130 ms
    // of a first proof's fast kernels and walker on the H200's host) then leave the thread to the
    // call that released them (a first proof's check ran after all of it).
    const startLater = async (ids: number[]) => {
      const size = new Map<number, number>();
      for (const i of ids) {
        await nextTask();
        size.set(i, this.source(requests[i]).code.length);
      }
      const built = new Map<number, Promise<GPUComputePipeline>>();
      for (const i of [...ids].sort((a, b) => size.get(b)! - size.get(a)!)) {
        await nextTask();
        for (const [j, p] of start([i], false)) built.set(j, p);
      }
      return built;
    };
    const restBuilt =
      ahead && firsts.length > 0
        ? Promise.allSettled([...firstBuilt.values(), this.unheld()]).then(() => startLater(rest))
        : Promise.resolve(start(rest, true));
    for (const i of firsts) out[i] = firstBuilt.get(i)!;
    for (const i of rest) out[i] = restBuilt.then((built) => built.get(i)!);
    if (waits && !ahead) this.onWait?.();
    return out;
  }

  /**
   * `fast` once compiled; until then `quick`: pipelines of the same kernels that compile in a
   * fraction of the time and run slower (their multiplies' rows in a loop). The quick ones are
   * handed to the driver first and `fast` behind them, for the calls that come later: a first call
   * waits for the quick compiles only. `only`: that set, waiting for its compile (checks, benches).
   */
  async fastOrQuick(
    fast: readonly PipelineRequest[],
    quick: readonly PipelineRequest[],
    only?: Speed,
  ): Promise<{ speed: Speed; pipelines: GPUComputePipeline[] }> {
    if (only === 'fast' || (only === undefined && this.allReady(fast))) return { speed: 'fast', pipelines: await this.all(fast) };
    if (only === undefined) await this.request([...quick.map((r) => ({ ...r, first: true })), ...fast]);
    return { speed: 'quick', pipelines: await this.all(quick) };
  }

  /** Whether fastOrQuick(fast, quick) would resolve at once: either set has finished compiling. */
  fastOrQuickReady(fast: readonly PipelineRequest[], quick: readonly PipelineRequest[]): boolean {
    return this.allReady(fast) || this.allReady(quick);
  }

  /**
   * Whether every pipeline of `requests` has finished compiling (nothing is requested). False
   * while a request's kernel family is not loaded yet.
   */
  allReady(requests: readonly PipelineRequest[]): boolean {
    try {
      // A request whose text was never made has not been compiled: no tree-shaking to find that out.
      return requests.every((r) => this.sources.has(PipelineCache.planKey(r)) && this.ready.has(this.pipelineKey(r, this.source(r))));
    } catch {
      return false;
    }
  }

  /**
   * Whether a pipeline of `kernel` was handed to the driver on this device (compiled or in
   * flight; a request still gated behind `first` ones has not been).
   */
  requested(kernel: KernelName): boolean {
    for (const planKey of this.sources.keys()) if (planKey.startsWith(`${kernel}#`)) return true;
    return false;
  }

  /** Pipelines created or in flight. */
  get size(): number {
    return this.pipelines.size;
  }

  /** What this cache has compiled so far. */
  stats(): CompileStats {
    return { ...this.compiled, pipelineMs: Math.round(this.compiled.pipelineMs) };
  }
}
