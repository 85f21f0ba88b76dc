/**
 * Code loaded on first use: a kernel family's host code (GPU and CPU paths), its WGSL, noble's
 * BN254, the WHIR prover and verifier. Each is an `import()` written literally where it is used,
 * so Vite, Rollup, webpack and esbuild put it in a chunk of its own, and a page pays only for the
 * families it runs (docs/internals.md, "One WGSL module per kernel family, loaded on first
 * use"). A chunk that fails to load (offline, a deploy that removed it, a server that does not
 * serve it) rejects the call with LOAD_FAILED and is tried again by the next call; the rest of the
 * prover keeps working.
 * @module
 */
import { isProverError, ProverError } from './errors.js';
import { FAMILY_METHODS, METHOD_FAMILY, type Family, type FamilyMethod } from './methods.js';

/** `load()`, with a failure reported as ProverError LOAD_FAILED naming `what`. */
export async function loadPart<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (isProverError(e)) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new ProverError(
      'LOAD_FAILED',
      `${what} failed to load (${why}); serve the app's whole build output (every chunk the bundler emitted) and call again`,
      { cause: e },
    );
  }
}

/** A loader that keeps its first success and, after a failure, loads again on the next call. */
export function loadOnce<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= loadPart(what, load).catch((e: unknown) => {
      loading = undefined;
      throw e;
    }));
}

type Methods = Record<string, (...args: unknown[]) => Promise<unknown>>;

/**
 * Every family's job methods over `env`, each family's facet loaded and built on its first call
 * (`facets[family](env)`, an import() and the facet function) and kept for the later ones.
 */
export function lazyFamilies<E>(
  env: E,
  facets: Record<Family, (env: E) => Promise<object>>,
  path: string,
): Record<FamilyMethod, (...args: unknown[]) => Promise<unknown>> {
  const loaders = new Map<Family, () => Promise<Methods>>();
  const facet = (f: Family) => {
    let load = loaders.get(f);
    if (!load) loaders.set(f, (load = loadOnce(`webgpu-prover's ${f} code (${path} path)`, () => facets[f](env) as Promise<Methods>)));
    return load();
  };
  return Object.fromEntries(
    FAMILY_METHODS.map((m) => [m, async (...args: unknown[]) => (await facet(METHOD_FAMILY[m]))[m](...args)]),
  ) as Record<FamilyMethod, (...args: unknown[]) => Promise<unknown>>;
}
