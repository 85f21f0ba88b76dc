/**
 * Typed transcript steps and their hash-stable render: the TS twin of p3-challenger 0.9.0-rc.2
 * `src/fs/pattern/step.rs` (Interaction, its `{:#}` Display) and `pattern/sequence.rs`
 * (InteractionPattern's `{:#}` Display and `pattern_hash` = Keccak-256 of that render).
 *
 * The render is what reaches the seed, so every byte matters:
 * ```text
 * Plonky3 Fiat-Shamir Transcript (27 interactions)\n
 * 00 Begin Protocol 12 initial_fold None Marker\n
 * 03   Atomic Challenge 9 ood_point Scalar Algebra(2013265921^4;a31559f9…)\n
 * ```
 * Positions are zero-padded to the digit count of (length - 1); each open Begin indents the
 * following lines by two spaces (its End sits at the Begin's level); labels are length-prefixed.
 * @module
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { BB_P } from '../../params/babybear.js';

export type Hierarchy = 'Atomic' | 'Begin' | 'End';
export type Kind = 'Protocol' | 'Public' | 'Message' | 'Hint' | 'Challenge' | 'Pow' | 'Salt';
/** Rust's `Length`: None, Scalar, Fixed(n), Bounded(max). A Pow step carries its bits as Fixed. */
export type Length = 'None' | 'Scalar' | { fixed: number } | { bounded: number };
/** Rust's `TypeTag` variants that BabyBear transcripts use. */
export type TypeTag =
  | { tag: 'Marker' }
  | { tag: 'Bytes' }
  | { tag: 'Opaque' }
  | { tag: 'Algebra'; modulus: number; degree: number; basis: Uint8Array }
  | { tag: 'Bits'; width: number }
  | { tag: 'UniformBits'; width: number };

export interface Interaction {
  hierarchy: Hierarchy;
  kind: Kind;
  label: string;
  length: Length;
  type: TypeTag;
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/**
 * `Keccak256(AlgebraIdentity::algebra_id())` per type: p3-field `field.rs` gives every prime field
 * over itself `p3-scalar-basis-v1`; p3-monty-31 `extension.rs` gives BinomialExtensionField<BabyBear, 4>
 * `p3-power-basis-v1:X^4-11` (W = 11 canonical).
 */
export const BASIS_F = /* @__PURE__ */ keccak_256(utf8('p3-scalar-basis-v1'));
export const BASIS_EF4 = /* @__PURE__ */ keccak_256(utf8('p3-power-basis-v1:X^4-11'));

/** `Algebra(2013265921^1;…)`: a BabyBear scalar (also a PoW witness). */
export const TAG_F: TypeTag = { tag: 'Algebra', modulus: BB_P, degree: 1, basis: BASIS_F };
/** `Algebra(2013265921^4;…)`: an element of BabyBear[x]/(x^4 - 11). */
export const TAG_EF: TypeTag = { tag: 'Algebra', modulus: BB_P, degree: 4, basis: BASIS_EF4 };

export const step = {
  /** `Interaction::algebra::<F, A>`. */
  algebra: (kind: Kind, label: string, length: Length, type: TypeTag = TAG_EF): Interaction => ({
    hierarchy: 'Atomic',
    kind,
    label,
    length,
    type,
  }),
  /** `Interaction::opaque`: a value the challenger encodes itself (a Merkle cap). */
  opaque: (kind: Kind, label: string, length: Length = 'Scalar'): Interaction => ({
    hierarchy: 'Atomic',
    kind,
    label,
    length,
    type: { tag: 'Opaque' },
  }),
  /** `Interaction::bytes`. */
  bytes: (kind: Kind, label: string, length: Length): Interaction => ({ hierarchy: 'Atomic', kind, label, length, type: { tag: 'Bytes' } }),
  /** `Interaction::bits` (biased sample_bits draws). */
  bits: (label: string, width: number, count: number): Interaction => ({
    hierarchy: 'Atomic',
    kind: 'Challenge',
    label,
    length: { fixed: count },
    type: { tag: 'Bits', width },
  }),
  /** `Interaction::uniform_bits` (rejection-sampled draws). */
  uniformBits: (label: string, width: number, count: number): Interaction => ({
    hierarchy: 'Atomic',
    kind: 'Challenge',
    label,
    length: { fixed: count },
    type: { tag: 'UniformBits', width },
  }),
  /** `Interaction::algebra::<F, F>(Atomic, Pow, label, Fixed(bits))`. */
  pow: (label: string, bits: number): Interaction => ({ hierarchy: 'Atomic', kind: 'Pow', label, length: { fixed: bits }, type: TAG_F }),
  /** `Interaction::marker` (Begin/End): the Rust type name never reaches the render. */
  marker: (hierarchy: 'Begin' | 'End', kind: Kind, label: string): Interaction => ({
    hierarchy,
    kind,
    label,
    length: 'None',
    type: { tag: 'Marker' },
  }),
};

/** The Begin/End pair a delegated protocol leaves in its caller's pattern (p3-whir `push_delegation`). */
export function delegation(label: string): Interaction[] {
  return [step.marker('Begin', 'Protocol', label), step.marker('End', 'Protocol', label)];
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** Basis hashes in hex, kept per array: each played transcript step is rendered twice (200-300 renders a proof). */
const basisHex = new WeakMap<Uint8Array, string>();
function hexOfBasis(b: Uint8Array): string {
  let h = basisHex.get(b);
  if (h === undefined) basisHex.set(b, (h = hex(b)));
  return h;
}

function renderLength(l: Length): string {
  if (typeof l === 'string') return l;
  return 'fixed' in l ? `Fixed(${l.fixed})` : `Bounded(${l.bounded})`;
}

function renderTag(t: TypeTag): string {
  switch (t.tag) {
    case 'Algebra':
      return `Algebra(${t.modulus}^${t.degree};${hexOfBasis(t.basis)})`;
    case 'Bits':
      return `Bits(${t.width})`;
    case 'UniformBits':
      return `UniformBits(${t.width})`;
    default:
      return t.tag;
  }
}

/** One step in alternate (`{:#}`) form: `Hierarchy Kind <label byte length> label Length Tag`. */
export function renderInteraction(i: Interaction): string {
  return `${i.hierarchy} ${i.kind} ${utf8(i.label).length} ${i.label} ${renderLength(i.length)} ${renderTag(i.type)}`;
}

/**
 * `format!("{:#}", InteractionPattern)`. Also checks nesting as `InteractionPattern::new` does
 * (every Begin closed by a matching End; a non-Protocol container holds only its own kind).
 */
export function renderPattern(steps: readonly Interaction[]): string {
  validate(steps);
  const width = String(Math.max(steps.length - 1, 0)).length;
  let out = `Plonky3 Fiat-Shamir Transcript (${steps.length} interactions)\n`;
  let indent = 0;
  steps.forEach((s, pos) => {
    if (s.hierarchy === 'End') indent = Math.max(indent - 1, 0);
    out += `${String(pos).padStart(width, '0')} ${'  '.repeat(indent)}${renderInteraction(s)}\n`;
    if (s.hierarchy === 'Begin') indent++;
  });
  return out;
}

/** `InteractionPattern::pattern_hash`: Keccak-256 of the UTF-8 render. */
export function patternHash(render: string): Uint8Array {
  return keccak_256(utf8(render));
}

function validate(steps: readonly Interaction[]): void {
  const stack: Interaction[] = [];
  for (const s of steps) {
    const top = stack[stack.length - 1];
    if (s.hierarchy !== 'End' && top && top.kind !== 'Protocol' && top.kind !== s.kind) {
      throw new Error(`pattern: ${s.kind} step "${s.label}" inside a ${top.kind} container`);
    }
    if (s.hierarchy === 'Begin') stack.push(s);
    if (s.hierarchy === 'End') {
      const open = stack.pop();
      if (!open || open.kind !== s.kind || open.label !== s.label) throw new Error(`pattern: unmatched End "${s.label}"`);
    }
  }
  if (stack.length > 0) throw new Error(`pattern: Begin "${stack[stack.length - 1].label}" never closed`);
}
