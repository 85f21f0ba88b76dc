/**
 * A snarkjs-format Groth16 zkey of any size for timing, made in a second: the shape of a real
 * circom key (nVars signals, nConstraints rows with 1-2 A terms and one B term each, the public
 * signals' rows, a domain of the next power of two, every section at its real size) with tiled
 * points (a few hundred multiples of the generators repeated) instead of a setup's. Its proofs do
 * not verify: it times the prover's work (which depends on the sizes and the witness, not on
 * which points), with `check: 'off'`. Real keys are what the correctness tests prove.
 * @module
 */
import { bn254 } from '@noble/curves/bn254.js';
import { FQ_P, FR_R, mod } from '../../src/params/bn254.js';
import { FR_MONT_R2 } from '../../src/params/bn254-fr.js';
import { g1ToWords, g2ToWords } from '../../src/groth16/point-words.js';
import { SplitMix64 } from './splitmix.js';

const TILE = 256;
const G1 = bn254.G1.Point;
const G2 = bn254.G2.Point;

export interface SyntheticKey {
  zkey: Uint8Array;
  /** A circom-like witness (w[0] = 1; mostly bits and small values, some full-size), 8 LE words a value. */
  witness: Uint32Array;
  nVars: number;
  nPublic: number;
  nConstraints: number;
  domainSize: number;
  coefficients: number;
}

/** `count` words of tiled points of `words` per point from a tile of `tile` points. */
function tiled(tile: Uint32Array, words: number, count: number): Uint8Array {
  const out = new Uint32Array(words * count);
  const m = tile.length / words;
  for (let i = 0; i < count; i += m) out.set(tile.subarray(0, words * Math.min(m, count - i)), words * i);
  return new Uint8Array(out.buffer);
}

function le32(x: bigint): Uint8Array {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++) b[i] = Number((x >> BigInt(8 * i)) & 0xffn);
  return b;
}

/** A witness value as circom circuits have them: 60% bits, 25% below 2^16, 15% full-size. */
function witnessValue(rng: SplitMix64): bigint {
  const u = Number(rng.next() % 100n);
  if (u < 60) return rng.next() & 1n;
  if (u < 85) return rng.next() & 0xffffn;
  return rng.next256() % FR_R;
}

export function syntheticKey(nConstraints: number, nVars: number, nPublic: number, seed = 1): SyntheticKey {
  const rng = new SplitMix64(seed);
  const domainSize = 2 ** Math.ceil(Math.log2(nConstraints + nPublic + 1));
  const g1Tile = new Uint32Array(16 * TILE);
  const g2Tile = new Uint32Array(32 * TILE);
  let p1 = G1.BASE.multiply(7n);
  let p2 = G2.BASE.multiply(11n);
  for (let i = 0; i < TILE; i++, p1 = p1.add(G1.BASE), p2 = p2.add(G2.BASE)) {
    g1ToWords(p1, g1Tile, 16 * i);
    g2ToWords(p2, g2Tile, 32 * i);
  }
  // Coefficients: per row 1-2 A terms and 1 B term over random signals; the public rows after.
  const recs: [number, number, number, bigint][] = [];
  const value = () => (rng.next() % 4n === 0n ? mod(rng.next() * rng.next(), FR_R) : 1n + (rng.next() % 8n));
  const signal = () => Number(rng.next() % BigInt(nVars));
  for (let c = 0; c < nConstraints; c++) {
    recs.push([0, c, signal(), value()]);
    if (rng.next() & 1n) recs.push([0, c, signal(), value()]);
    recs.push([1, c, signal(), value()]);
  }
  for (let s = 0; s <= nPublic; s++) recs.push([0, nConstraints + s, s, 1n]);
  const coef = new Uint8Array(4 + 44 * recs.length);
  const cv = new DataView(coef.buffer);
  cv.setUint32(0, recs.length, true);
  recs.forEach(([m, c, s, v], i) => {
    const o = 4 + 44 * i;
    cv.setUint32(o, m, true);
    cv.setUint32(o + 4, c, true);
    cv.setUint32(o + 8, s, true);
    coef.set(le32(mod(v * FR_MONT_R2, FR_R)), o + 12);
  });
  const g1 = (p: InstanceType<typeof G1>) => new Uint8Array(g1ToWords(p).buffer);
  const g2 = (p: InstanceType<typeof G2>) => new Uint8Array(g2ToWords(p).buffer);
  const u32 = (...xs: number[]) => new Uint8Array(Uint32Array.from(xs).buffer);
  const header = [u32(32), le32(FQ_P), u32(32), le32(FR_R), u32(nVars, nPublic, domainSize)];
  const keyPoints = [
    g1(G1.BASE.multiply(3n)),
    g1(G1.BASE.multiply(5n)),
    g2(G2.BASE.multiply(5n)),
    g2(G2.BASE),
    g1(G1.BASE.multiply(13n)),
    g2(G2.BASE.multiply(13n)),
  ];
  const sections: [number, Uint8Array[]][] = [
    [1, [u32(1)]],
    [2, [...header, ...keyPoints]],
    [3, [tiled(g1Tile, 16, nPublic + 1)]],
    [4, [coef]],
    [5, [tiled(g1Tile, 16, nVars)]],
    [6, [tiled(g1Tile, 16, nVars)]],
    [7, [tiled(g2Tile, 32, nVars)]],
    [8, [tiled(g1Tile, 16, nVars - nPublic - 1)]],
    [9, [tiled(g1Tile, 16, domainSize)]],
    [10, [new Uint8Array(68)]],
  ];
  const size = 12 + sections.reduce((t, [, parts]) => t + 12 + parts.reduce((u, p) => u + p.length, 0), 0);
  const zkey = new Uint8Array(size);
  const dv = new DataView(zkey.buffer);
  zkey.set(new TextEncoder().encode('zkey'), 0);
  dv.setUint32(4, 1, true);
  dv.setUint32(8, sections.length, true);
  let at = 12;
  for (const [type, parts] of sections) {
    const len = parts.reduce((u, p) => u + p.length, 0);
    dv.setUint32(at, type, true);
    dv.setBigUint64(at + 4, BigInt(len), true);
    at += 12;
    for (const p of parts) zkey.set(p, (at += p.length) - p.length);
  }
  const witness = new Uint32Array(8 * nVars);
  witness[0] = 1;
  for (let i = 1; i < nVars; i++) {
    const v = witnessValue(rng);
    for (let k = 0; k < 8; k++) witness[8 * i + k] = Number((v >> BigInt(32 * k)) & 0xffffffffn);
  }
  return { zkey, witness, nVars, nPublic, nConstraints, domainSize, coefficients: recs.length };
}
