import { planNtt, nttLimits } from '../src/kernels/ntt/plan.js';
import { NTT_TUNING } from '../src/kernels/ntt/tuning.js';
const ctx = { workgroup: { threads: 1024, tileBytes: 49152 }, limits: { maxStorageBufferBindingSize: 2**32-4, maxBufferSize: 2**36, maxComputeWorkgroupsPerDimension: 65535 } } as any;
for (const [h, w] of [[17, 8], [12, 8], [22, 8]] as const) {
  const p = planNtt({ op: 'lde', height: 2 ** h, width: w, addedBits: 1, shift: 31 }, NTT_TUNING, nttLimits(ctx));
  console.log(h, w, p.steps.map((s: any) => `${p.requests[s.pipeline].entryPoint}:${p.requests[s.pipeline].overrides?.NTT_FLAGS}`).join(' '));
}
