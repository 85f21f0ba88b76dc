/**
 * ProverError: the one error type the public API throws. `code` is stable across
 * releases (match on it, not on the message); the message says what to do.
 * @module
 */

export type ProverErrorCode =
  | 'NO_WEBGPU' // no WebGPU implementation or adapter
  | 'DEVICE_LOST' // the GPU device was lost (driver reset, tab backgrounded too long, destroy())
  | 'DESTROYED' // the prover was destroyed
  | 'INVALID_LENGTH' // an input has the wrong number of elements
  | 'INVALID_ARGUMENT' // an option is out of range or of the wrong type
  | 'NON_CANONICAL' // a field element is >= the modulus
  | 'NOT_ON_CURVE'
  | 'TOO_LARGE' // the job exceeds the device's limits
  | 'ABORTED' // the job's AbortSignal fired (the error's name is 'AbortError')
  | 'GPU_ERROR' // the GPU reported a validation or out-of-memory error
  | 'CHECK_FAILED' // a run-time check found a GPU result that differs from the CPU reference (the family now runs on the CPU)
  | 'UNSATISFIED' // a Groth16 witness does not satisfy the circuit (its proof would not verify)
  | 'WORKER_FAILED' // the prover's Web Worker did not start (its script failed to load or run)
  | 'LOAD_FAILED'; // a part of the package loaded on first use (a kernel family's code) failed to load

export class ProverError extends Error {
  readonly code: ProverErrorCode;
  constructor(code: ProverErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    // An aborted job's error is also the web's AbortError (code checks and name checks both work).
    this.name = code === 'ABORTED' ? 'AbortError' : 'ProverError';
    this.code = code;
  }
}

/** True for ProverError instances, also across realms (worker messages lose the prototype). */
export function isProverError(e: unknown): e is ProverError {
  if (!(e instanceof Error) || typeof (e as ProverError).code !== 'string') return false;
  return e.name === 'ProverError' || (e.name === 'AbortError' && (e as ProverError).code === 'ABORTED');
}
