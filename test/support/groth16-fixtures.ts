/**
 * The committed Groth16 fixture circuits (test/groth16/circuits/) with the inputs
 * make-fixtures.ts proves them for, and a loader for their committed files.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './groth16-circom.js';

export interface FixtureCircuit {
  readonly name: string;
  /** What it exercises. */
  readonly about: string;
  /** Inputs; merkle-inclusion's `root` is filled in by make-fixtures.ts (merkle-root-helper.circom). */
  readonly input: Readonly<Record<string, unknown>>;
}

export const FIXTURE_CIRCUITS: readonly FixtureCircuit[] = [
  {
    name: 'multiplier-chain',
    about: '16 multiplications, public input a, output a·Πb',
    input: { a: '3', b: Array.from({ length: 16 }, (_, i) => String(i + 2)) },
  },
  {
    name: 'poseidon-hash',
    about: 'circomlib Poseidon(3) of a private preimage and a public nonce',
    input: { secret: ['123456789', '987654321'], nonce: '42' },
  },
  {
    name: 'range-check',
    about: 'circomlib Num2Bits(32) and LessThan(32): lower <= value < upper',
    input: { value: '1000000', lower: '999', upper: '2147483648' },
  },
  {
    name: 'merkle-inclusion',
    about: 'Poseidon Merkle inclusion of depth 4 with a public root, and a Poseidon nullifier',
    input: {
      secret: '17',
      pathElements: ['1001', '1002', '1003', '1004'],
      pathIndices: ['1', '0', '1', '1'],
      topic: '5',
    },
  },
];

/** A fixture's committed files: its zkey and witness bytes and the input they were made from. */
export function loadFixture(name: string): { zkey: Uint8Array; wtns: Uint8Array; input: Record<string, unknown>; zkeyPath: string } {
  const zkeyPath = join(FIXTURES, `${name}.zkey`);
  return {
    zkey: new Uint8Array(readFileSync(zkeyPath)),
    wtns: new Uint8Array(readFileSync(join(FIXTURES, `${name}.wtns`))),
    input: JSON.parse(readFileSync(join(FIXTURES, `${name}.input.json`), 'utf8')) as Record<string, unknown>,
    zkeyPath,
  };
}
