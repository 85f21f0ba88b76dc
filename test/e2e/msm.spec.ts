// BN254 MSM on the GPU (SwiftShader): WGSL Fq vs bigint, the edge cases and seeded
// inputs for n = 1 .. 2^logn vs @noble/curves pippenger (default and wgInv walkers), the
// arkworks vectors, error codes, the one-shot and batch pipelining, both engines (quick, walker).
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

const LOGN = process.env.MSM_E2E_LOGN ?? '10';

test(`msm equals noble (n = 1 .. 2^${LOGN}, edge cases) and arkworks vectors`, async ({ page }) => {
  const result = await autorun(page, 'msm-noble-check', { logn: LOGN });
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const steps = result.rows.filter((r) => r.status === 'ok').map((r) => r.step);
  for (const s of [
    'fq mul/add/sub/inv',
    'fq13 mul (20x13-bit) vs bigint',
    'msm all zero scalars',
    'msm scalars 1 and r-1',
    'msm identity points',
    'msm repeated point',
    'msm P and -P, same scalars',
    'msm sparse (90% zeros)',
    'msm all scalars equal',
    `msm random n=${1 << Number(LOGN)}`,
    'msm low memory, 1 window(s) per batch, staged reduction, riders',
    'msm low memory, 2 window(s) per batch, riders',
    'msm low memory, 2 window(s) per batch',
    'msm low memory, 3 window(s) per batch, staged reduction, 8x32 per-thread-inversion walker',
    // a job of 3 equal parts sharing one reduction (riders crossing parts, kept pairs added to)
    'msm low memory, 1 window(s) per batch, staged reduction, riders, a chain of 3 parts',
    'msm low memory, 2 window(s) per batch, riders, a chain of 3 parts',
    'msm error not on curve',
    'msm error scalar >= r',
    'msm usable after errors',
    // the workgroup-inversion walker (wgInv): S = 1 and 2, both multiplies, odd n with idle threads
    `msm wgInv S=2 random n=${1 << Number(LOGN)}`,
    `msm wgInv S=1 8x32 random n=${1 << Number(LOGN)}`,
    'msm wgInv S=2 8x32 random n=777',
    'msm wgInv S=1 random n=1000',
    'msm wgInv S=1 identity points',
    'msm wgInv S=2 repeated point',
    'msm wgInv S=1 8x32 repeated point',
    'msm wgInv S=1 P and -P, same scalars',
    'msm wgInv S=2 P and -P, different scalars',
    'msm wgInv S=1 sparse (90% zeros)',
    'msm wgInv S=2 all scalars equal',
    // the large workgroup, 4 slots merging the pieces of buckets that cross them (chains through every slot)
    `msm wgInv S=4 wide random n=${1 << Number(LOGN)}`,
    'msm wgInv S=4 wide all scalars equal',
    'msm wgInv S=4 wide P and -P, same scalars',
    'msm wgInv S=4 wide repeated point',
    // scalars as the caller has them: the GPU split vs the host encoder; every edge case over a slice, alone and in a batch
    'msm split le n=300',
    'msm split be n=7',
    'msm split flags scalars >= r',
    'msm job in 3 parts',
    'msm bases stats',
    ...[
      'all zero scalars',
      'scalars 1 and r-1',
      'identity points',
      'repeated point',
      'P and -P, same scalars',
      'P and -P, different scalars',
      'sparse (90% zeros)',
      'all scalars equal',
    ].map((c) => `msm slice+batch ${c}`),
    'msm errors: slice past the end, packed scalar >= r (alone, batch, one-shot), off-curve bases',
    'msm handle usable after errors',
    // the job's pipelining: bases converted run by run in the one-shot, batches read back at the end
    'msm bases through the staging ring, in pieces',
    'msm one-shot in 3 parts',
    'msm one-shot in 3 parts, bad point in the last part',
    'msm one-shot, last point off the curve',
    'msm batch of 4, third vector with a scalar >= r',
    // the quick engine (a first call's while the walker compiles) and the walker, named by the tuning
    'msm cold first call on the quick engine',
    ...['all zero scalars', 'scalars 1 and r-1', 'identity points', 'repeated point', 'P and -P, same scalars', 'all scalars equal'].map(
      (c) => `msm engines ${c}`,
    ),
    'msm quick engine in 3 parts',
    'msm quick engine flags a packed scalar >= r, usable after',
  ]) {
    expect(steps).toContain(s);
  }
  expect(steps.filter((s) => s.startsWith('arkworks ')).length).toBeGreaterThanOrEqual(10);
});

// WebGPU's default limits (16 KiB workgroup memory, 256 invocations, 128 MiB bindings), the floor
// of every device (iOS, Android): the MSM plans its walker and reductions within them.
test("msm equals noble at WebGPU's default limits (n = 1 .. 2^6, edge cases, low memory)", async ({ page }) => {
  const result = await autorun(page, 'msm-noble-check', { logn: '6', limits: 'default' });
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  expect(result.rows[0].detail).toMatch(/WebGPU's default limits/);
  expect(result.rows.filter((r) => r.status === 'ok').length).toBeGreaterThanOrEqual(40);
});
