// The README and docs/ stand alone (issue 30, item 5): every relative link in README.md and
// docs/*.md resolves to a file inside this repository, as it will on the repository's web page
// and in a clone. Paths written as code (`../x.md`) count too: that is how the README used to
// point at a design document outside the repository.
import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const repo = process.cwd();
const DOCS = [
  'README.md',
  ...readdirSync(join(repo, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Relative targets a Markdown file points at: inline links, reference definitions, and code spans that are relative paths. */
function relativeTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, ''); // fenced code is example code, not links
  const targets: string[] = [];
  for (const m of prose.matchAll(/\]\(\s*(?:<([^>]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1] ?? m[2]);
  for (const m of prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) targets.push(m[1]);
  for (const m of prose.matchAll(/`(\.{1,2}\/[^`\s]+)`/g)) targets.push(m[1]);
  return targets
    .filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#')) // URLs, mailto:, in-page anchors
    .map((t) => decodeURIComponent(t.replace(/[?#].*$/, '')));
}

describe('documentation links', () => {
  it('finds the links it should (the parser itself)', () => {
    const md =
      '[a](docs/a.md) [b](<b c.md> "t") [w](https://x.y) [h](#top) `../out.md` `npm test`\n[r]: ./r.md\n```\n[no](in-fence.md)\n```\n';
    expect(relativeTargets(md)).toEqual(['docs/a.md', 'b c.md', './r.md', '../out.md']);
  });

  for (const doc of DOCS) {
    it(`${doc}: every relative link resolves inside the repository`, () => {
      const targets = relativeTargets(readFileSync(join(repo, doc), 'utf8'));
      const bad = targets.filter((t) => {
        const abs = resolve(repo, dirname(doc), t);
        return relative(repo, abs).startsWith('..') || !existsSync(abs);
      });
      expect(bad).toEqual([]);
    });
  }

  it('README.md points at the design document', () => {
    expect(relativeTargets(readFileSync(join(repo, 'README.md'), 'utf8'))).toContain('docs/architecture.md');
  });
});
