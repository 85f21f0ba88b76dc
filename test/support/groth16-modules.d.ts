// Types for the parts of snarkjs the Groth16 tests and fixture script call (it ships no types;
// circom_runtime's are in src/groth16/circom-runtime.d.ts). Only what is used, as its sources
// (node_modules/snarkjs/src) define it.

declare module 'snarkjs' {
  type FileRef = string | { type: 'mem'; data?: Uint8Array };
  type Logger = { info(...a: unknown[]): void; debug(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void };
  export const zKey: {
    newZKey(r1cs: FileRef, ptau: FileRef, zkey: FileRef, logger?: Logger): Promise<unknown>;
    beacon(
      oldZkey: FileRef,
      newZkey: FileRef,
      name: string,
      beaconHash: string,
      numIterationsExp: number,
      logger?: Logger,
    ): Promise<unknown>;
    exportVerificationKey(zkey: FileRef, logger?: Logger): Promise<Record<string, unknown>>;
    /** The whole key as JSON (zkey_utils.js readZKey with toObject, bigints as decimal strings). */
    exportJson(zkey: FileRef): Promise<Record<string, unknown>>;
  };
  export const wtns: {
    exportJson(wtns: FileRef): Promise<bigint[]>;
  };
  export const groth16: {
    verify(vk: unknown, publicSignals: unknown, proof: unknown, logger?: Logger): Promise<boolean>;
    prove(zkey: FileRef, wtns: FileRef, logger?: Logger): Promise<{ proof: Record<string, unknown>; publicSignals: string[] }>;
  };
}
