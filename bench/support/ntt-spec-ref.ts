/**
 * src/ref's output for an NTT job given as an NttJob (rows bit-reversed where the spec asks): the
 * reference that the past-one-binding GPU checks and the four-step CPU model compare with.
 */
import * as ref from '../../src/ref/ntt.js';
import { jobField, type NttJob } from '../../src/kernels/ntt/job.js';

/** In the job's field (BabyBear when it names none). */
export function refNtt(spec: NttJob, x: Uint32Array): Uint32Array {
  const w = spec.width;
  const F = jobField(spec);
  const y =
    spec.op === 'dft'
      ? ref.dft(x, w, F)
      : spec.op === 'idft'
        ? ref.idft(x, w, F)
        : spec.op === 'encode'
          ? ref.encode(x, w, spec.addedBits!, F)
          : ref.cosetLde(x, w, spec.addedBits!, spec.shift!, F);
  return spec.bitReversed ? ref.bitReverseRows(y, w) : y;
}
