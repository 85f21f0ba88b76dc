/**
 * Device-loss recovery: a prover whose device is lost (a driver reset, a GPU process crash, the
 * browser reclaiming the GPU, a watchdog) gets a new device, pipelines and pool, and the job that
 * was running when it happened is run again once on them; a second loss fails with DEVICE_LOST.
 * A loss between jobs is recovered on the next call. Handles made on the lost device (NttMatrix,
 * MerkleTree, msmBases) cannot be recovered: using them fails with DEVICE_LOST and says so.
 * @module
 */
import { isProverError } from './errors.js';
import type { GpuContext } from './gpu/context.js';
import type { Scheduler } from './sched/scheduler.js';
import type { Backend } from './prover.js';
import { JOB_METHODS, METHOD_FAMILY, type Family, type FamilyMethod, type JobMethod } from './methods.js';

/** One device's prover and its context (whose `lost` says whether it may still be used). */
export interface DeviceProver {
  prover: Backend;
  ctx: GpuContext;
  sched: Scheduler;
}

/** Internal: the live device's context and scheduler, for protocols that record their own GPU work (WHIR's sumcheck engine). */
export const LIVE_DEVICE = Symbol.for('webgpu-prover.internal.liveDevice');

/** What LIVE_DEVICE returns. */
export interface LiveDevice {
  ctx: GpuContext;
  sched: Scheduler;
}

/** Test hook: lose the current device now, as a driver reset would (`device.destroy()` underneath). */
export const LOSE_DEVICE = Symbol.for('webgpu-prover.test.loseDevice');

/** A GPU Backend over `build()`'s device that rebuilds on loss and retries the interrupted job once. */
export async function withRecovery(build: () => Promise<DeviceProver>): Promise<Backend> {
  let current = await build();
  let destroyed = false;
  let losses = 0;
  let rebuilding: Promise<DeviceProver> | undefined;
  /** The current device's prover, rebuilt first if its device was lost since the last call. */
  const live = async (): Promise<DeviceProver> => {
    if (!current.ctx.lost || destroyed) return current;
    const lostOne = current;
    rebuilding ??= build().finally(() => (rebuilding = undefined));
    const next = await rebuilding;
    if (current === lostOne) {
      current = next;
      losses++;
    }
    return current;
  };
  // Each device is asked once per family for a first call's compiles: by the router
  // (Backend.prefetch, once per family, on whichever device is current then), or here on the
  // device's own first call of the family (a rebuilt one: its range check's pipeline, say, would
  // otherwise compile at a later size).
  const asked = new WeakMap<DeviceProver, Set<Family>>();
  const firstAsk = (d: DeviceProver, method: FamilyMethod): boolean => {
    const families = asked.get(d) ?? new Set<Family>();
    asked.set(d, families);
    const fresh = !families.has(METHOD_FAMILY[method]);
    families.add(METHOD_FAMILY[method]);
    return fresh;
  };
  const forward =
    (name: JobMethod) =>
    async (...args: unknown[]) => {
      const first = await live();
      if (name !== 'warmUp' && firstAsk(first, name)) await first.prover.prefetch?.(name, args, false);
      try {
        return await (first.prover[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (e) {
        // Retry once, on a new device, only a job its device's loss interrupted.
        if (destroyed || !isProverError(e) || e.code !== 'DEVICE_LOST' || !first.ctx.lost) throw e;
        const again = await live();
        return (again.prover[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      }
    };
  const prover = {
    get info() {
      return current.prover.info;
    },
    stats: () => ({ ...current.prover.stats(), deviceLosses: losses }),
    // The first device's loss; later devices are recreated silently (stats().deviceLosses counts them).
    lost: current.prover.lost,
    destroy() {
      destroyed = true;
      current.prover.destroy();
    },
    prefetch: (method: FamilyMethod, args: readonly unknown[], selfCheck: boolean, done?: Promise<unknown>) => {
      firstAsk(current, method);
      return current.prover.prefetch?.(method, args, selfCheck, done);
    },
    [LOSE_DEVICE]: () => current.ctx.device.destroy(),
    [LIVE_DEVICE]: async (): Promise<LiveDevice> => {
      const d = await live();
      return { ctx: d.ctx, sched: d.sched };
    },
    ...Object.fromEntries(JOB_METHODS.map((m) => [m, forward(m)])),
  };
  return prover as unknown as Backend;
}
