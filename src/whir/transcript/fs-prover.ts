/**
 * Prover-side transcript driver over `DuplexChallenger<BabyBear, Perm16, 16, 8>`: the TS twin of
 * p3-challenger 0.9.0-rc.2 `src/fs/state/prover.rs` (`ProverState`) with `FieldUnit<BabyBear>` and
 * `FieldToFieldCodec` (and `ExtensionFieldCodec` over it), the codecs p3-whir / p3-sumcheck use.
 *
 * Effects on the sponge (exactly Rust's):
 * - seed: observe `[len, 3-byte LE chunks…]` of the seed bytes (domain-separator.ts).
 * - EF message: observe its 4 canonical coefficients c0..c3 (no Montgomery form, no length).
 * - opaque message (a Merkle cap): observe its 8 elements.
 * - EF challenge: 4 `sample()`s, c0 first. Scalar challenge: 1 `sample()`.
 * - uniform bits: `sample_uniform_bits::<true>` per draw (reject x >= p & !(2^b - 1); b > 27 splits
 *   into two draws of floor(b/2) and the rest, combined `lo | hi << floor(b/2)`); b = 0 samples nothing.
 * - bits: `sample_bits` (x & (2^b - 1), no rejection).
 * - pow: grind (the smallest witness, as Plonky3's serial search) = observe(w) + sample_bits(b).
 *   A zero-difficulty site is absent from the pattern and touches nothing (callers skip it).
 * - begin/end: pattern markers only; the sponge is untouched.
 * Every op is checked against the next step of the separator's pattern, as Rust's PatternPlayer
 * does, so an out-of-order call fails here instead of producing an unverifiable proof.
 * @module
 */
import { BB_P } from '../../params/babybear.js';
import type { DuplexChallenger } from '../../ref/challenger.js';
import type { DomainSeparator } from './domain-separator.js';
import { renderInteraction, step, TAG_F, type Interaction } from './pattern.js';

/** An extension element [c0, c1, c2, c3], canonical. */
export type Ext4 = [number, number, number, number];

/** BabyBear's `UniformSamplingField::MAX_SINGLE_SAMPLE_BITS`. */
const MAX_SINGLE_SAMPLE_BITS = 27;

/** `SAMPLING_BITS_M[k] = p & !(2^k - 1)`: the rejection bound for k uniform bits. */
export function samplingBound(k: number): number {
  return k === 0 ? BB_P : (BB_P & ~((1 << k) - 1)) >>> 0;
}

/** `DuplexChallenger::sample_uniform_bits::<true>(bits)`. */
export function sampleUniformBits(ch: DuplexChallenger, bits: number): number {
  if (!Number.isInteger(bits) || bits < 0 || bits > 30) throw new Error(`uniform bits: ${bits} outside 0..30`);
  if (bits === 0) return 0;
  const draw = (k: number): number => {
    const m = samplingBound(k);
    let x = ch.sample();
    while (x >= m) x = ch.sample();
    return x & ((1 << k) - 1);
  };
  if (bits <= MAX_SINGLE_SAMPLE_BITS) return draw(bits);
  const lo = Math.floor(bits / 2);
  const a = draw(lo);
  const b = draw(bits - lo);
  return a + b * 2 ** lo;
}

/** One seeded sub-transcript (`ProverState::new(challenger, &ds)`), walked step by step. */
export class FsProver {
  private cursor = 0;

  private constructor(
    readonly challenger: DuplexChallenger,
    readonly ds: DomainSeparator,
  ) {}

  /** Seed `challenger` with `ds` and return the driver for its pattern. */
  static seed(challenger: DuplexChallenger, ds: DomainSeparator): FsProver {
    challenger.observeSlice(ds.seedElements);
    return new FsProver(challenger, ds);
  }

  /** Steps not yet played. */
  get remaining(): number {
    return this.ds.steps.length - this.cursor;
  }

  private play(expected: Interaction): void {
    const want = this.ds.steps[this.cursor];
    const got = renderInteraction(expected);
    if (!want || renderInteraction(want) !== got) {
      throw new Error(
        `${this.ds.name}: played "${got}" but expected ${want ? `"${renderInteraction(want)}"` : 'nothing'} at step ${this.cursor}`,
      );
    }
    this.cursor++;
  }

  /** `observe_extension`: one EF message the caller's proof carries. */
  observeExtension(label: string, value: Ext4): void {
    this.play(step.algebra('Message', label, 'Scalar'));
    this.challenger.observeSlice(value);
  }

  /** `observe_extensions`: a fixed-length list of EF messages as one step (e.g. [h(0), h(∞)], final_poly). */
  observeExtensions(label: string, values: readonly Ext4[]): void {
    this.play(step.algebra('Message', label, { fixed: values.length }));
    for (const v of values) this.challenger.observeSlice(v);
  }

  /** `add_scalars` / `add_public_scalars`-style base-field messages (sponge effect only; no wire bytes kept). */
  addScalars(label: string, values: readonly number[]): void {
    this.play(step.algebra('Message', label, { fixed: values.length }, TAG_F));
    this.challenger.observeSlice(values);
  }

  /** `observe_opaque`: a Merkle cap / digest, observed element by element (8 for a height-0 cap). */
  observeOpaque(label: string, elements: readonly number[]): void {
    this.play(step.opaque('Message', label));
    this.challenger.observeSlice(elements);
  }

  /** `challenge_extension`: 4 samples, c0 first. */
  challengeExtension(label: string): Ext4 {
    this.play(step.algebra('Challenge', label, 'Scalar'));
    return this.challenger.sampleExt();
  }

  /** `challenge_extensions`: `count` EF challenges as one step. */
  challengeExtensions(label: string, count: number): Ext4[] {
    this.play(step.algebra('Challenge', label, { fixed: count }));
    return Array.from({ length: count }, () => this.challenger.sampleExt());
  }

  /** `challenge_scalar`: one base-field challenge. */
  challengeScalar(label: string): number {
    this.play(step.algebra('Challenge', label, 'Scalar', TAG_F));
    return this.challenger.sample();
  }

  /** `challenge_uniform_bits`: `count` rejection-sampled `width`-bit indices, repeats kept. */
  challengeUniformBits(label: string, width: number, count: number): number[] {
    this.play(step.uniformBits(label, width, count));
    return Array.from({ length: count }, () => sampleUniformBits(this.challenger, width));
  }

  /** `challenge_bits`: `count` biased draws (x & (2^width - 1)). */
  challengeBits(label: string, width: number, count: number): number[] {
    this.play(step.bits(label, width, count));
    return Array.from({ length: count }, () => this.challenger.sampleBits(width));
  }

  /**
   * `observe_pow` (and `pow`'s sponge effect): grind `bits` on the CPU and return the witness
   * (the smallest one, ~2^bits permutations). Only for sites the pattern lists (bits > 0).
   */
  observePow(label: string, bits: number): number {
    this.play(step.pow(label, bits));
    return this.challenger.grind(bits);
  }

  /**
   * The same step with a witness found elsewhere (the GPU grinder): absorbs it as the verifier's
   * check does, and throws if it does not clear `bits`.
   */
  observePowWitness(label: string, bits: number, witness: number): void {
    this.play(step.pow(label, bits));
    if (!this.challenger.checkWitness(bits, witness))
      throw new Error(`${this.ds.name}: witness ${witness} does not clear ${bits} bits at ${label}`);
  }

  /** `begin_protocol`: a marker; the sponge is untouched (a delegate runs its own sub-transcript). */
  begin(label: string): void {
    this.play(step.marker('Begin', 'Protocol', label));
  }

  /** `end_protocol`. */
  end(label: string): void {
    this.play(step.marker('End', 'Protocol', label));
  }

  /** `finalize`: every described step must have been played. */
  finish(): void {
    if (this.remaining !== 0) throw new Error(`${this.ds.name}: ${this.remaining} pattern step(s) never played`);
  }
}

/** A permutation trace record, as the Rust oracle's `--trace` JSONL writes it. */
export interface PermutationRecord {
  i: number;
  in: number[];
  out: number[];
}

/**
 * Attach a trace hook to `ch`; the returned list fills with one record per permutation, after
 * copies of `prior` (the permutations the same transcript made before, e.g. at commit time).
 */
export function tracePermutations(ch: DuplexChallenger, prior: readonly PermutationRecord[] = []): PermutationRecord[] {
  const records: PermutationRecord[] = prior.map((r) => ({ i: r.i, in: [...r.in], out: [...r.out] }));
  ch.onPermute = (a, b) => records.push({ i: records.length, in: Array.from(a), out: Array.from(b) });
  return records;
}

/** JSONL `{"i":k,"in":[…],"out":[…]}` lines, byte-identical to the oracle's. */
export function traceJsonl(records: readonly PermutationRecord[]): string {
  return records.map((r) => JSON.stringify({ i: r.i, in: r.in, out: r.out }) + '\n').join('');
}
