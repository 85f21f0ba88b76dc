// The four-step split of one long column (src/kernels/ntt/long.ts), with every batched job run by
// src/ref and the twists by their CPU model: the arithmetic the GPU path uses, against src/ref's
// one-shot transforms, for each op, both output orders, shifts, zero padding shorter than a row
// of the four-step matrix, and an lde whose idft is itself a four-step.
import { describe, it, expect } from 'vitest';
import { checkLongColumn, runLongColumn, type BlockRunner } from '../../src/kernels/ntt/long.js';
import { columnsPerBlock, fourStepShape } from '../../src/kernels/ntt/plan.js';
import { outputHeight, type NttJob } from '../../src/kernels/ntt/job.js';
import { twistOnCpu } from '../../src/kernels/ntt/twist.js';
import { isProverError } from '../../src/errors.js';
import { refNtt } from '../../bench/support/ntt-spec-ref.js';
import { SplitMix64 } from '../../bench/support/splitmix.js';

/** Runs jobs on the CPU and records their shapes, failing any job past `maxWords`. */
function cpuRunner(maxWords: number, shapes: string[]): BlockRunner {
  return async (spec, block, pre, post) => {
    const out = outputHeight(spec) * spec.width;
    if (out > maxWords) throw new Error(`job ${spec.op} ${spec.height}x${spec.width} exceeds ${maxWords}`);
    shapes.push(`${spec.op} ${spec.height}x${spec.width}`);
    const x = Uint32Array.from(block);
    if (pre) twistOnCpu(x, spec.height, spec.width, pre);
    const y = refNtt(spec, x);
    if (post) twistOnCpu(y, outputHeight(spec), spec.width, post);
    return y;
  };
}

describe('four-step NTT of one long column (ntt/long.ts)', () => {
  const rng = new SplitMix64(0x4f57);
  const maxWords = 2 ** 5;
  const cases: NttJob[] = [
    { op: 'dft', height: 2 ** 7, width: 1 },
    { op: 'dft', height: 2 ** 8, width: 1, bitReversed: true },
    { op: 'idft', height: 2 ** 7, width: 1 },
    { op: 'idft', height: 2 ** 6, width: 1, bitReversed: true },
    { op: 'encode', height: 2 ** 5, width: 1, addedBits: 2 },
    { op: 'encode', height: 2 ** 2, width: 1, addedBits: 5, bitReversed: true }, // 4 values < a row of 16
    { op: 'lde', height: 2 ** 5, width: 1, addedBits: 2, shift: 31 },
    { op: 'lde', height: 2 ** 6, width: 1, addedBits: 1, shift: 7, bitReversed: true }, // its idft is a four-step too
  ];
  for (const spec of cases) {
    it(`${spec.op} ${spec.height} rows -> ${outputHeight(spec)}${spec.bitReversed ? ' bit-reversed' : ''}${spec.shift ? ` shift ${spec.shift}` : ''}`, async () => {
      const x = rng.fieldArray(spec.height);
      const shapes: string[] = [];
      const got = await runLongColumn(spec, x, maxWords, cpuRunner(maxWords, shapes));
      expect(got).toEqual(refNtt(spec, x));
      expect(shapes.length).toBeGreaterThanOrEqual(4); // several blocks in each step
    });
  }

  it('picks n1 ≥ n2 and blocks within the limit', () => {
    expect(fourStepShape(2 ** 27)).toEqual({ n1: 2 ** 14, n2: 2 ** 13 });
    expect(fourStepShape(2 ** 26)).toEqual({ n1: 2 ** 13, n2: 2 ** 13 });
    expect(columnsPerBlock(2 ** 13, 2 ** 14, 2 ** 25)).toBe(2 ** 11);
    expect(columnsPerBlock(3, 8, 100)).toBe(3);
    expect(columnsPerBlock(10, 200, 100)).toBe(1);
  });

  it('TOO_LARGE when even the pieces exceed the limit', () => {
    let code = '';
    try {
      checkLongColumn(2 ** 12, 2 ** 5);
    } catch (e) {
      code = isProverError(e) ? e.code : String(e);
    }
    expect(code).toBe('TOO_LARGE');
    expect(() => checkLongColumn(2 ** 10, 2 ** 5)).not.toThrow();
  });
});
