/**
 * Which Poseidon2 kernels prover.poseidon2, merkleCommit, commit and grind use:
 * - 'straight' (default): generated straight-line permutation on named lanes with the cheap
 *   internal diagonal (scripts/gen-poseidon2-wgsl.ts), the coalesced Merkle leaf kernel
 *   (wgsl/kernels/merkle_s.wgsl) and grind_s.wgsl; exact on every Plonky3 vector
 *   (poseidon2/merkle/sponge/commit/grind checks, Chromium);
 * - 'loop': the first kernels (wgsl/lib/poseidon2.wgsl, merkle.wgsl, grind.wgsl), kept
 *   selectable so one device run can time both (bench: P2_VARIANT=loop,straight) and as a fallback.
 * A process-wide setting, not public API: the bench and the check pages switch it between runs.
 * @module
 */

export type P2Variant = 'loop' | 'straight';
export const P2_VARIANTS: readonly P2Variant[] = ['loop', 'straight'];

let current: P2Variant = 'straight';

export function p2Variant(): P2Variant {
  return current;
}

/** Select the kernels for later calls; returns the previous setting. Throws on an unknown name. */
export function setP2Variant(v: P2Variant): P2Variant {
  if (!P2_VARIANTS.includes(v)) throw new Error(`unknown Poseidon2 variant ${String(v)} (loop | straight)`);
  const prev = current;
  current = v;
  return prev;
}

/** Parse a comma list such as P2_VARIANT=loop,straight (empty -> [default]). */
export function parseP2Variants(list: string | undefined): P2Variant[] {
  const names = (list ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) return [current];
  for (const n of names) if (!P2_VARIANTS.includes(n as P2Variant)) throw new Error(`P2_VARIANT: unknown variant ${n} (loop | straight)`);
  return names as P2Variant[];
}
