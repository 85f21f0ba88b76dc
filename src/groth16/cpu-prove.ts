/**
 * A complete Groth16 prover on the CPU: the library's `fallback: 'cpu'` path and the reference
 * the GPU path is tested against. The same stages as snarkjs's groth16_prove.js, in plain
 * TypeScript: the polynomial stage (src/ref/groth16-h.ts: QAP evaluations, coset NTTs, h), five
 * MSMs with @noble/curves' pippenger (A, B1, C, H in G1; B2 in G2), then assemble.ts.
 *
 * The bases are decoded from the zkey's Montgomery words at each proof, only where the scalar is
 * nonzero (~3 µs a point: ~35 ms of the ~4 s a 1,432-signal, 2^11-domain proof takes here; the
 * MSMs are the rest, B2's G2 one the largest), and points at infinity and zero scalars are left out
 * of each MSM (circuits have many of both: a signal that never appears in B has the zero B points,
 * and most Num2Bits bits are 0).
 * @module
 */
import { pippenger } from '@noble/curves/abstract/curve.js';
import { bn254 } from '@noble/curves/bn254.js';
import { ProverError } from '../errors.js';
import { groth16H } from '../ref/groth16-h.js';
import { assembleProof, type Groth16Blinding } from './assemble.js';
import { G1_WORDS, G2_WORDS, g1FromWords, g2FromWords, type G1Point, type G2Point } from './point-words.js';
import type { Groth16Proof } from './proof-json.js';
import { witnessToBigints, type WitnessWords } from './wtns.js';
import type { Groth16Zkey, PointSection } from './zkey.js';

/**
 * Σ scalars[i]·point_i over a section's words, decoding only the points whose scalar is nonzero
 * and leaving out those at infinity (no decoded copy of the key is kept: a 2^20 key's would be
 * ~1-2 GB of noble points).
 */
function sectionMsm<P extends G1Point | G2Point>(
  Point: typeof bn254.G1.Point | typeof bn254.G2.Point,
  decode: (words: Uint32Array, at: number, what: () => string, check: boolean) => P,
  wordsPerPoint: number,
  section: PointSection,
  scalars: readonly bigint[],
  what: string,
): P {
  const ps: P[] = [];
  const ks: bigint[] = [];
  for (let i = 0; i < section.count; i++) {
    if (scalars[i] === 0n) continue;
    const p = decode(section.words, i * wordsPerPoint, () => `${what} point ${i}`, false);
    if (p.is0()) continue;
    ps.push(p);
    ks.push(scalars[i]);
  }
  // pippenger is generic over the point constructor; the two groups' types do not unify in TS.
  return pippenger(Point as never, ps as never[], ks) as P;
}

export interface CpuProveOptions {
  /** Blinding r, s for reproducible tests; leave out otherwise (assemble.ts says why). */
  readonly blinding?: Groth16Blinding;
}

export interface CpuProveResult {
  readonly proof: Groth16Proof;
  /** The five MSM sums, before blinding (what the GPU path must reproduce). */
  readonly sums: { a: G1Point; b1: G1Point; b2: G2Point; c: G1Point; h: G1Point };
  /** The H MSM's scalars, natural order (groth16H). */
  readonly h: bigint[];
}

/**
 * Proves with `zkey` for `witness` on the CPU.
 * @throws ProverError INVALID_LENGTH when the witness does not have the key's nVars values
 * @example
 * const { proof } = cpuProve(readZkey(zkeyBytes), readWtns(wtnsBytes));
 * const json = proofToJson(proof);
 */
export function cpuProve(zkey: Groth16Zkey, witness: WitnessWords, options: CpuProveOptions = {}): CpuProveResult {
  if (witness.count !== zkey.nVars || witness.words.length < 8 * witness.count) {
    throw new ProverError(
      'INVALID_LENGTH',
      `witness has ${witness.count} values but the zkey's circuit has ${zkey.nVars} signals: compute the witness with this circuit's wasm`,
    );
  }
  const w = witnessToBigints(witness);
  const h = groth16H(zkey.coefficients, w, zkey.domainSize);
  const g1 = (section: PointSection, scalars: readonly bigint[], what: string) =>
    sectionMsm(bn254.G1.Point, g1FromWords, G1_WORDS, section, scalars, what);
  const sums = {
    a: g1(zkey.a, w, 'zkey A'),
    b1: g1(zkey.b1, w, 'zkey B1'),
    b2: sectionMsm(bn254.G2.Point, g2FromWords, G2_WORDS, zkey.b2, w, 'zkey B2'),
    c: g1(zkey.c, w.slice(zkey.nPublic + 1), 'zkey C'),
    h: g1(zkey.h, h, 'zkey H'),
  };
  return { proof: assembleProof(zkey, sums, options.blinding), sums, h };
}
