// The README's Use block is docs/examples/use.ts (which the dev page's readme-check mode runs in
// Chromium): the block must equal that file's body between its markers, so the README never
// shows code that was not run.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

describe('README Use example', () => {
  it('is docs/examples/use.ts', () => {
    const example = read('docs/examples/use.ts');
    const start = example.indexOf('  // --- README ---\n');
    const end = example.indexOf('  // --- end ---');
    expect(start).toBeGreaterThan(0);
    const body = example
      .slice(start + '  // --- README ---\n'.length, end)
      .trimEnd()
      .split('\n')
      .map((l) => l.replace(/^ {2}/, ''))
      .join('\n');
    const readme = read('README.md');
    const use = readme.slice(readme.indexOf('## Use'));
    const block = use.slice(use.indexOf('```ts\n') + 6, use.indexOf('\n```', use.indexOf('```ts\n')));
    const imports =
      "import { createProver, DuplexChallenger, verifyMerklePath } from 'webgpu-prover';\nimport { bn254 } from '@noble/curves/bn254.js';\n\n";
    expect(block).toBe(imports + body);
  });
});
