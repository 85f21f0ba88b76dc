/**
 * Test hook: the GPU path's results of chosen families made wrong, as a miscompiling driver
 * would make them, so tests can show the self-check and the run-time checks catch it and move
 * the family to the CPU. Host results (arrays, roots, points, witnesses) are changed; results
 * kept on the GPU (NttMatrix) are not.
 * @module
 */
import { BB_P } from '../params/babybear.js';
import { FAMILY_METHODS, METHOD_FAMILY, type Family, type FamilyMethod } from '../methods.js';
import type { Jobs } from '../prover.js';

/** A noble point, known by its class's BASE (this module must not load noble: the page's client imports it). */
type NoblePoint = { add(q: NoblePoint): NoblePoint; constructor: { BASE?: NoblePoint } };
const isPoint = (v: object): v is NoblePoint =>
  typeof (v as { add?: unknown }).add === 'function' && (v.constructor as { BASE?: unknown }).BASE !== undefined;

/** Prover[CORRUPT_FAMILY](family): that family's GPU results are wrong from now on. */
export const CORRUPT_FAMILY = Symbol.for('webgpu-prover.test.corruptFamily');

function corrupt(v: unknown): unknown {
  // Every value off by one: a miscompiled kernel is wrong everywhere, not in one place.
  if (v instanceof Uint32Array) return v.map((x) => (x + 1) % BB_P);
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'object' && v !== null) {
    if (isPoint(v)) return v.add(v.constructor.BASE!);
    const o = v as Record<string, unknown>;
    if (o.root instanceof Uint32Array && typeof o.tree === 'object') {
      const root = corrupt(o.root);
      return { root, tree: { ...(o.tree as object), root } };
    }
    if (typeof o.prove === 'function' && typeof o.verificationKey === 'function') {
      // A Groth16 key: its proofs with πA and πC swapped (well formed, and never verifying).
      const prove = o.prove as (...a: unknown[]) => Promise<{ proof: Record<string, unknown> }>;
      return {
        ...o,
        prove: async (...a: unknown[]) => {
          const out = await prove(...a);
          return { ...out, proof: { ...out.proof, pi_a: out.proof.pi_c, pi_c: out.proof.pi_a } };
        },
      };
    }
    if (typeof o.msm === 'function' && typeof o.n === 'number') {
      const msm = o.msm as (...a: unknown[]) => Promise<unknown>;
      return { ...o, msm: async (...a: unknown[]) => corrupt(await msm(...a)) };
    }
  }
  return v;
}

/** `gpu`'s job methods, whose results are corrupted while their family is in `families`. */
export function corrupting(gpu: Jobs, families: ReadonlySet<Family>): Jobs {
  const wrap =
    (m: FamilyMethod) =>
    async (...args: unknown[]) => {
      const out = await (gpu[m] as (...a: unknown[]) => Promise<unknown>)(...args);
      return families.has(METHOD_FAMILY[m]) ? corrupt(out) : out;
    };
  return Object.fromEntries(FAMILY_METHODS.map((m) => [m, wrap(m)])) as unknown as Jobs;
}
