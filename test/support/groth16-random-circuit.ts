/**
 * Random small circom circuits this repository never saw, for end-to-end Groth16 tests: a seeded
 * mix of multiplications, linear combinations, circomlib Num2Bits and Poseidon over random public
 * and private inputs, with one or two outputs, plus an input that satisfies it. Each circuit has at
 * least one multiplication, one Num2Bits and one Poseidon, in a random order. The circuit only
 * computes (its one assertion, Num2Bits' range, holds by construction: those signals are kept
 * below 2^bits), so the input is always valid. Sized to fit the committed 2^11 powers of tau:
 * at most 3 Poseidons (~250-330 constraints each) and ~40 other constraints.
 * @module
 */

export interface RandomCircuit {
  readonly seed: number;
  readonly source: string;
  readonly input: Record<string, string[]>;
  readonly nPublicInputs: number;
  readonly nPrivateInputs: number;
  readonly nOutputs: number;
  /** The ops in order, e.g. "mul num2bits(32) poseidon(3) lin". */
  readonly ops: string;
}

/** mulberry32: a small seeded PRNG (the test names its seed; failures replay exactly). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A signal of the circuit and, when it is known to be small, a bound on its bits. */
interface Wire {
  readonly expr: string;
  readonly bits: number | null;
}

/**
 * The circuit for `seed`.
 * @example
 * const { source, input } = randomCircuit(7);
 */
export function randomCircuit(seed: number): RandomCircuit {
  const rand = prng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[int(0, xs.length - 1)];
  // A random field-sized value (< 2^248 < r) or a small one (< 2^16, so Num2Bits(16) holds).
  const bigValue = () => {
    let x = 0n;
    for (let i = 0; i < 8; i++) x = (x << 31n) | BigInt(int(0, 2 ** 31 - 1));
    return (x >> 1n).toString();
  };
  const smallValue = () => String(int(0, 2 ** 16 - 1));

  const nPub = int(1, 3);
  const nPriv = int(1, 4);
  const nOut = int(1, 2);
  const input: Record<string, string[]> = { p: [], q: [] };
  const wires: Wire[] = [];
  for (const [name, n] of [
    ['p', nPub],
    ['q', nPriv],
  ] as const) {
    for (let i = 0; i < n; i++) {
      // q[0] is always small, so a Num2Bits always has an input.
      const small = (name === 'q' && i === 0) || rand() < 0.5;
      input[name].push(small ? smallValue() : bigValue());
      wires.push({ expr: `${name}[${i}]`, bits: small ? 16 : null });
    }
  }

  const body: string[] = [];
  const ops: string[] = [];
  let poseidons = 0;
  // One of each gadget, then 0-5 more of any kind, in a random order.
  const kinds = ['mul', 'num2bits', 'poseidon'] as ('mul' | 'lin' | 'num2bits' | 'poseidon')[];
  for (let extra = int(0, 5); extra > 0; extra--) kinds.push(pick(['mul', 'mul', 'lin', 'num2bits', 'poseidon'] as const));
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = int(0, i);
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  for (let k = 0; k < kinds.length; k++) {
    const kind = kinds[k];
    const x = pick(wires);
    const y = pick(wires);
    if (kind === 'mul') {
      body.push(`signal m${k};`, `m${k} <== ${x.expr} * ${y.expr};`);
      const bits = x.bits !== null && y.bits !== null && x.bits + y.bits <= 64 ? x.bits + y.bits : null;
      wires.push({ expr: `m${k}`, bits });
      ops.push('mul');
    } else if (kind === 'lin') {
      const c = int(2, 1000);
      body.push(`signal l${k};`, `l${k} <== ${x.expr} + ${c} * ${y.expr} + ${int(0, 99)};`);
      wires.push({ expr: `l${k}`, bits: null });
      ops.push('lin');
    } else if (kind === 'num2bits' && wires.some((w) => w.bits !== null)) {
      const small = pick(wires.filter((w) => w.bits !== null));
      const n = small.bits as number;
      body.push(`component b${k} = Num2Bits(${n});`, `b${k}.in <== ${small.expr};`);
      for (let j = 0; j < 2; j++) wires.push({ expr: `b${k}.out[${int(0, n - 1)}]`, bits: 1 });
      ops.push(`num2bits(${n})`);
    } else if (poseidons < 3) {
      const m = int(1, 4);
      body.push(`component h${k} = Poseidon(${m});`);
      for (let j = 0; j < m; j++) body.push(`h${k}.inputs[${j}] <== ${pick(wires).expr};`);
      wires.push({ expr: `h${k}.out`, bits: null });
      poseidons++;
      ops.push(`poseidon(${m})`);
    } else {
      body.push(`signal m${k};`, `m${k} <== ${x.expr} * ${y.expr};`);
      wires.push({ expr: `m${k}`, bits: null });
      ops.push('mul');
    }
  }
  // Each output is a product of two wires, the later ones more likely, so it is not a plain copy.
  for (let o = 0; o < nOut; o++) {
    const late = wires.slice(Math.floor(wires.length / 2));
    body.push(`out[${o}] <== ${pick(late).expr} * ${pick(wires).expr};`);
  }

  const source = [
    'pragma circom 2.0.0;',
    '',
    `// Random circuit, seed ${seed} (test/support/groth16-random-circuit.ts): ${ops.join(' ')}.`,
    'include "circomlib/circuits/poseidon.circom";',
    'include "circomlib/circuits/bitify.circom";',
    '',
    'template RandomCircuit() {',
    `    signal input p[${nPub}];`,
    `    signal input q[${nPriv}];`,
    `    signal output out[${nOut}];`,
    ...body.map((l) => `    ${l}`),
    '}',
    '',
    'component main {public [p]} = RandomCircuit();',
    '',
  ].join('\n');
  return { seed, source, input, nPublicInputs: nPub, nPrivateInputs: nPriv, nOutputs: nOut, ops: ops.join(' ') };
}
