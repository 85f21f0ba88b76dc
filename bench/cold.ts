/**
 * `bench cold`: the first proof's cost, one fresh process per family (bench/cold-probe.ts), this
 * version (bench/dist/cold-probe.mjs) and the previous one (bench/dist-prev/cold-probe.mjs, when
 * present: see bench/RESULTS.md), alternating in the same command. A process's first call pays
 * everything a user's first call would: adapter and device, WGSL parsing, pipeline creation.
 * COLD_FAMILIES picks families (default lde,merkle,poseidon2,msm,all,warm; `warm` runs this version only).
 * @module
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchOutput } from './field.js';

const FAMILIES = (process.env.COLD_FAMILIES ?? 'lde,merkle,poseidon2,msm,all,warm').split(',');
const REPS = Number(process.env.COLD_REPS ?? 1);

function probe(script: string, family: string): Record<string, unknown> {
  // The NVIDIA driver keeps compiled shaders on disk across processes: the first run of a kernel
  // warmed the next process's (seen: a Merkle first call 1047 ms, then 51 ms in the next process).
  // Each probe gets the cache off and an empty cache folder, so every first call is a user's first.
  const cache = mkdtempSync(join(tmpdir(), 'cold-'));
  const env = { ...process.env, __GL_SHADER_DISK_CACHE: '0', __GL_SHADER_DISK_CACHE_PATH: cache, XDG_CACHE_HOME: cache };
  const out = execFileSync(process.execPath, [script, family], {
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 300_000,
  });
  const line = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!line) throw new Error(`${script} ${family}: no result line in ${JSON.stringify(out.slice(-500))}`);
  return JSON.parse(line) as Record<string, unknown>;
}

export async function benchCold(): Promise<BenchOutput> {
  const versions: Array<[string, string]> = [['this', 'bench/dist/cold-probe.mjs']];
  if (existsSync('bench/dist-prev/cold-probe.mjs')) versions.push(['previous', 'bench/dist-prev/cold-probe.mjs']);
  const rows: Record<string, unknown>[] = [];
  let ok = true;
  for (let rep = 0; rep < REPS; rep++) {
    for (const family of FAMILIES) {
      // previous first, then this: neither always gets the clock the other warmed
      for (const [version, script] of rep % 2 === 0 ? [...versions].reverse() : versions) {
        if (family === 'warm' && version === 'previous') continue; // no warmUp() there
        try {
          rows.push({ suite: 'cold', version, rep, ...probe(script, family) });
        } catch (e) {
          ok = false;
          rows.push({ suite: 'cold', version, rep, family, error: String((e as Error).message).slice(0, 400) });
        }
      }
    }
  }
  return { rows, ok };
}
