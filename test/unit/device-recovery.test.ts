// Device-loss recovery (src/device-recovery.ts) with stand-in devices: a rebuilt device is asked
// for a family's first-call compiles on its own first call of that family (the router asks only
// once, on the device current then), and only once per family and device.
import { describe, it, expect } from 'vitest';
import { withRecovery, type DeviceProver } from '../../src/device-recovery.js';

function standIn(id: number, log: string[]): DeviceProver {
  const ctx = { lost: false };
  const prover = {
    info: {},
    stats: () => ({}),
    lost: new Promise(() => {}),
    destroy() {},
    prefetch: (m: string) => {
      log.push(`prefetch ${id} ${m}`);
    },
    lde: async () => log.push(`lde ${id}`),
    dft: async () => log.push(`dft ${id}`),
    msm: async () => log.push(`msm ${id}`),
  };
  return { ctx, prover, sched: {} } as unknown as DeviceProver;
}

describe('device recovery', () => {
  it("asks a rebuilt device for each family's first-call compiles once, on that family's first call there", async () => {
    const log: string[] = [];
    const devices: DeviceProver[] = [];
    const backend = await withRecovery(async () => {
      const d = standIn(devices.length, log);
      devices.push(d);
      return d;
    });
    const call = (m: 'lde' | 'dft' | 'msm') => (backend[m] as unknown as () => Promise<unknown>)();
    // The router asks the first device on the family's first call; that call does not ask again.
    await backend.prefetch!('lde', [], true);
    await call('lde');
    (devices[0].ctx as { lost: boolean }).lost = true;
    await call('lde');
    await call('dft'); // the same family (ntt): not asked again
    await call('msm');
    await call('msm');
    expect(log).toEqual(['prefetch 0 lde', 'lde 0', 'prefetch 1 lde', 'lde 1', 'dft 1', 'prefetch 1 msm', 'msm 1', 'msm 1']);
  });
});
