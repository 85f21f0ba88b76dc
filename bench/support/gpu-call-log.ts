/**
 * A log of every call the library makes on WebGPU's objects (device, queue, buffers, encoders,
 * compute passes), by wrapping their prototypes' methods: Dawn's classes in Node (the 'webgpu'
 * package's globals) or a browser's. Each entry says when the call was made and, for one that
 * returns a promise (mapAsync, onSubmittedWorkDone, createComputePipelineAsync, popErrorScope),
 * when it resolved: a small job's end-to-end time is mostly its waits for the GPU, and an extra
 * wait shows here as an extra awaited call. bench/gpu-calls.ts diffs two versions' logs of one
 * warm call.
 * @module
 */

/** One call: when it was made (ms from start()), what it was, and when its promise resolved. */
export interface GpuCall {
  at: number;
  call: string;
  resolvedAt?: number;
}

const CLASSES = ['GPUDevice', 'GPUQueue', 'GPUBuffer', 'GPUCommandEncoder', 'GPUComputePassEncoder'] as const;

/** A short description of an argument: labels and sizes, not contents. */
function describe(x: unknown): string {
  if (x === undefined || x === null) return String(x);
  if (typeof x === 'number' || typeof x === 'boolean') return String(x);
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  if (ArrayBuffer.isView(x)) return `${x.constructor.name}(${x.byteLength} B)`;
  if (x instanceof ArrayBuffer) return `ArrayBuffer(${x.byteLength} B)`;
  if (Array.isArray(x)) return `[${x.map(describe).join(', ')}]`;
  const o = x as Record<string, unknown>;
  if (typeof o.label === 'string' && typeof o.size === 'number' && typeof o.mapState === 'string') return `buffer '${o.label}' ${o.size} B`;
  if (typeof o.label === 'string' && o.label) return `'${o.label}'`;
  const keys = ['label', 'size', 'usage', 'mappedAtCreation', 'entryPoint'].filter((k) => k in o);
  if (keys.length) return `{${keys.map((k) => `${k}: ${describe(o[k])}`).join(', ')}}`;
  if ('entries' in o) return `{entries: ${(o.entries as unknown[]).length}}`;
  return typeof o === 'object' ? (o.constructor?.name ?? 'object') : typeof o;
}

/**
 * Wrap the WebGPU classes' methods on `scope` (globalThis by default) so that, between start()
 * and stop(), each call is logged. restore() puts the methods back.
 */
export function gpuCallLog(scope: Record<string, unknown> = globalThis as unknown as Record<string, unknown>) {
  const calls: GpuCall[] = [];
  let t0 = 0;
  let on = false;
  const undo: Array<() => void> = [];
  for (const name of CLASSES) {
    const proto = (scope[name] as { prototype?: object } | undefined)?.prototype as Record<string, unknown> | undefined;
    if (!proto) continue;
    for (const key of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key);
      if (key === 'constructor' || !d || typeof d.value !== 'function') continue;
      const original = d.value as (...args: unknown[]) => unknown;
      const kind = name.replace(/^GPU/, '').replace('ComputePassEncoder', 'pass').replace('CommandEncoder', 'encoder');
      proto[key] = function (this: unknown, ...args: unknown[]) {
        const result = original.apply(this, args);
        if (on) {
          const self = kind === 'Buffer' ? ` '${(this as { label?: string }).label ?? ''}'` : '';
          const entry: GpuCall = { at: performance.now() - t0, call: `${kind}${self}.${key}(${args.map(describe).join(', ')})` };
          calls.push(entry);
          if (result instanceof Promise) void result.then(() => (entry.resolvedAt = performance.now() - t0)).catch(() => {});
        }
        return result;
      };
      undo.push(() => (proto[key] = original));
    }
  }
  return {
    calls,
    /** ms since start(), on the log's clock. */
    now: () => performance.now() - t0,
    start() {
      calls.length = 0;
      t0 = performance.now();
      on = true;
    },
    stop(): GpuCall[] {
      on = false;
      return [...calls];
    },
    restore() {
      for (const u of undo) u();
    },
  };
}

/** The log as lines: time, the call, and the wait for an awaited one. */
export function formatCalls(calls: readonly GpuCall[]): string[] {
  return calls.map((c) => {
    const wait = c.resolvedAt === undefined ? '' : `  -> resolved at ${c.resolvedAt.toFixed(3)} ms`;
    return `${c.at.toFixed(3).padStart(8)} ms  ${c.call}${wait}`;
  });
}
