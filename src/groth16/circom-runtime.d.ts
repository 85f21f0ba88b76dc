// circom_runtime (iden3, the witness calculator snarkjs uses) ships no types: the part this package calls.
declare module 'circom_runtime' {
  export interface WitnessCalculator {
    /** The witness as values; `sanityCheck` makes it check every assertion. */
    calculateWitness(input: Record<string, unknown>, sanityCheck?: boolean | number): Promise<bigint[]>;
    /** The witness as a `.wtns` file's bytes; `sanityCheck` makes it check every assertion. */
    calculateWTNSBin(input: Record<string, unknown>, sanityCheck?: boolean | number): Promise<Uint8Array>;
  }
  export function WitnessCalculatorBuilder(code: Uint8Array | ArrayBuffer, options?: Record<string, unknown>): Promise<WitnessCalculator>;
}
