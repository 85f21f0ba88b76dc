/**
 * The Device card: the adapter this page is granted (info, features, limits), the limits the
 * prover's device reports (its adapter row), and the buffer pool after a run (its stats row).
 * @module
 */
import type { ProverInfo, PoolStats } from '../../src/index.js';

/** The limits that size the prover's jobs (blocks, workgroups, bindings). */
const LIMITS = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupsPerDimension',
  'maxStorageBuffersPerShaderStage',
  'maxBindGroups',
] as const;

export function fmtBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(n % 2 ** 20 ? 1 : 0)} MiB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(n % 2 ** 10 ? 1 : 0)} KiB`;
  return `${n} B`;
}

function fill(dl: HTMLElement, pairs: Array<[string, string]>): void {
  dl.replaceChildren(
    ...pairs.flatMap(([k, v]) => {
      const dt = document.createElement('dt');
      dt.textContent = k;
      const dd = document.createElement('dd');
      dd.textContent = v;
      return [dt, dd];
    }),
  );
}

const isBytes = (k: string) => /Size$/.test(k) && k !== 'maxComputeWorkgroupSizeX';

/** What navigator.gpu grants this page (the prover's worker asks the same browser). */
export async function showAdapter(): Promise<void> {
  const adapterEl = document.getElementById('adapter')!;
  const adapter = await navigator.gpu?.requestAdapter().catch(() => null);
  if (!adapter) {
    fill(adapterEl, [['adapter', 'no WebGPU adapter (try &fallback=cpu)']]);
    return;
  }
  const i = adapter.info;
  fill(adapterEl, [
    ['vendor', i.vendor || '-'],
    ['architecture', i.architecture || '-'],
    ['device', i.device || '-'],
    ['description', i.description || '-'],
  ]);
  const features = [...adapter.features].sort();
  document
    .getElementById('features')!
    .replaceChildren(...features.map((f) => Object.assign(document.createElement('li'), { textContent: f })));
  const limits = adapter.limits as unknown as Record<string, number>;
  fill(
    document.getElementById('limits')!,
    LIMITS.map((k) => [k.replace(/^max/, ''), isBytes(k) ? fmtBytes(limits[k]) : String(limits[k])]),
  );
}

/** The prover's own view, from a run's adapter row: where it runs and the limits its device got. */
export function showProverInfo(info: ProverInfo): void {
  const dl = document.getElementById('adapter')!;
  const extra: Array<[string, string]> = [
    ['prover', `${info.backend}, ${info.worker ? 'Web Worker' : "page's thread"}`],
    ['timestamp-query', info.timestampQuery ? 'yes' : 'no'],
    ['granted binding', fmtBytes(info.maxStorageBufferBindingSize)],
    ['granted workgroup memory', fmtBytes(info.maxComputeWorkgroupStorageSize)],
  ];
  for (const [k, v] of extra) {
    dl.append(
      Object.assign(document.createElement('dt'), { textContent: k }),
      Object.assign(document.createElement('dd'), { textContent: v }),
    );
  }
}

export function showPool(s: PoolStats & { pipelines?: number; compiled?: { pipelines: number; pipelineMs: number } }): void {
  fill(document.getElementById('pool')!, [
    ['held', fmtBytes(s.bytesHeld)],
    ['peak in use', fmtBytes(s.peakBytesInUse)],
    ['buffers', String(s.buffers)],
    ...(s.compiled
      ? [['pipelines compiled', `${s.compiled.pipelines} (${(s.compiled.pipelineMs / 1000).toFixed(1)} s summed)`] as [string, string]]
      : []),
  ]);
}
