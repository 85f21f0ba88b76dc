// The README's first call is docs/examples/first-call.ts and docs/usage.md's tour is
// docs/examples/use.ts (the dev page's readme-check mode runs both in Chromium): each Markdown
// block must equal its file's body between the markers, after the imports a user writes, so the
// documentation never shows code that was not run. build.test.ts compiles the README's blocks
// against the packed tarball.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

/** The lines between an example's markers, de-indented. */
function body(example: string): string {
  const start = example.indexOf('  // --- README ---\n');
  const end = example.indexOf('  // --- end ---');
  expect(start).toBeGreaterThan(0);
  return example
    .slice(start + '  // --- README ---\n'.length, end)
    .trimEnd()
    .split('\n')
    .map((l) => l.replace(/^ {2}/, ''))
    .join('\n');
}

/** The first ```ts block after `heading` in a Markdown file. */
function block(markdown: string, heading: string): string {
  const at = markdown.indexOf(`\n${heading}\n`);
  expect(at, heading).toBeGreaterThan(0);
  const section = markdown.slice(at);
  const open = section.indexOf('```ts\n') + 6;
  return section.slice(open, section.indexOf('\n```', open));
}

const NOBLE = "import { bn254 } from '@noble/curves/bn254.js';\n";

describe('documented examples', () => {
  it("the README's First call is docs/examples/first-call.ts", () => {
    const imports = `import { createProver } from 'webgpu-prover';\n${NOBLE}\n`;
    expect(block(read('README.md'), '## First call')).toBe(imports + body(read('docs/examples/first-call.ts')));
  });

  it("docs/usage.md's tour is docs/examples/use.ts", () => {
    const imports = `import { createProver, DuplexChallenger, verifyMerklePath } from 'webgpu-prover';\n${NOBLE}\n`;
    expect(block(read('docs/usage.md'), '## Every method in one example')).toBe(imports + body(read('docs/examples/use.ts')));
  });
});
