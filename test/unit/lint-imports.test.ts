// scripts/lint-imports.ts on made-up files: each rule fires on a file that breaks it, at the
// import's line, and stays quiet on the clean files beside it (so `npm run lint` cannot pass by
// reading nothing).
import { describe, expect, it } from 'vitest';
import { lintImports, type SourceFile } from '../../scripts/lint-imports.js';

const lint = (files: SourceFile[], allow: string[] = []) => lintImports(files, allow).map((v) => `${v.path}:${v.line}: ${v.rule}`);

describe('lint-imports', () => {
  it('clean files give nothing: downward layers, packages, bench/support from tests, vector data', () => {
    expect(
      lint([
        {
          path: 'src/kernels/ntt.ts',
          text: "import { GpuContext } from '../gpu/context.js';\nimport { BB_P } from '../params/babybear.js';\nimport { bn254 } from '@noble/curves/bn254.js';\n",
        },
        {
          path: 'src/api/ntt.ts',
          text: "import { runNtt } from '../kernels/ntt.js';\nexport type { NttSpec } from '../kernels/ntt-spec.js';\n",
        },
        {
          path: 'src/field/babybear.ts',
          text: "import { BB_P } from '../params/babybear.js';\nimport { ProverError } from '../errors.js';\n",
        },
        { path: 'src/prover.ts', text: "import { nttMethods } from './api/ntt.js';\nimport { Scheduler } from './sched/scheduler.js';\n" },
        {
          path: 'test/unit/a.test.ts',
          text: "import { SplitMix64 } from '../../bench/support/splitmix.js';\nimport { dft } from '../../src/ref/ntt.js';\n",
        },
        {
          path: 'demo/modes/a.ts',
          text: "import { checkNtt } from '../../bench/support/ntt-check.js';\nimport v from '../../test/vectors/dft.json' with { type: 'json' };\n",
        },
        { path: 'bench/support/a.ts', text: "import { dft } from '../../src/ref/ntt.js';\nimport { median } from './stats.js';\n" },
        // Comments and strings are not imports.
        {
          path: 'bench/ntt.ts',
          text: "// import { x } from '../test/gpu/ntt-check.js';\nconst s = \"from '../test/support/stats.js'\";\n",
        },
      ]),
    ).toEqual([]);
  });

  it('each rule fires at the line of the module name that breaks it', () => {
    expect(
      lint([
        { path: 'src/kernels/ntt.ts', text: "import { a } from '../gpu/context.js';\nimport { nttMethods } from '../api/ntt.js';\n" },
        { path: 'src/ref/ntt.ts', text: "\n\nimport type { GpuContext } from '../gpu/context.js';\n" },
        { path: 'src/field/bb.ts', text: "import { dft } from '../ref/ntt.js';\n" },
        { path: 'src/kernels/grind.ts', text: "import {\n  bbMul,\n} from '../ref/babybear.js';\n" },
        { path: 'src/gpu/x.ts', text: "import { SplitMix64 } from '../../bench/support/splitmix.js';\n" },
        {
          path: 'test/e2e/x.spec.ts',
          text: "import type { Row } from '../../demo/autorun.js';\nimport { runDevice } from '../../bench/device/driver.js';\n",
        },
        { path: 'bench/field.ts', text: "import '../test/gpu/wgsl-dev.gen.js';\n" },
        { path: 'demo/modes/x.ts', text: "const m = await import('../../test/support/stats.js');\n" },
        { path: 'bench/support/y.ts', text: "export { benchNtt } from '../ntt.js';\n" },
      ]),
    ).toEqual([
      'src/kernels/ntt.ts:2: layer',
      'src/ref/ntt.ts:3: layer',
      'src/field/bb.ts:1: layer',
      'src/kernels/grind.ts:3: kernels-ref', // a multi-line import: the line of its module name
      'src/gpu/x.ts:1: src-outside',
      'test/e2e/x.spec.ts:1: test-bench',
      'test/e2e/x.spec.ts:2: test-bench',
      'bench/field.ts:1: bench-test',
      'demo/modes/x.ts:1: bench-test',
      'bench/support/y.ts:1: support-leaf',
    ]);
  });

  it('the kernels -> ref allow-list passes what it names and fails on an entry no file needs', () => {
    const grind = { path: 'src/kernels/grind.ts', text: "import { bbMul } from '../ref/babybear.js';\n" };
    expect(lint([grind], ['src/kernels/grind.ts -> src/ref/babybear.ts'])).toEqual([]);
    expect(lint([grind], ['src/kernels/grind.ts -> src/ref/babybear.ts', 'src/kernels/ntt.ts -> src/ref/ntt.ts'])).toEqual([
      'scripts/lint-imports.ts:1: kernels-ref',
    ]);
  });
});
