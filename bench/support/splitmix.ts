/**
 * SplitMix64, the PRNG that test/vectors/gen (Rust) uses to make large inputs: vectors store
 * a seed instead of megabytes of numbers, and this reproduces them exactly.
 * @module
 */
import { BB_P } from '../../src/params/babybear.js';

const M64 = (1n << 64n) - 1n;

export class SplitMix64 {
  private state: bigint;
  constructor(seed: number | bigint) {
    this.state = BigInt(seed) & M64;
  }
  next(): bigint {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & M64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  }
  /** A BabyBear value (or one mod another field's `p`): the high 32 bits mod p (the generator's definition). */
  nextField(p = BB_P): number {
    return Number(this.next() >> 32n) % p;
  }
  /** A 256-bit value from four outputs, the first the most significant. */
  next256(): bigint {
    return (this.next() << 192n) | (this.next() << 128n) | (this.next() << 64n) | this.next();
  }
  fieldArray(n: number, p = BB_P): Uint32Array {
    const out = new Uint32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.nextField(p);
    return out;
  }
}
