// Autorun modes `poseidon2-check`, `poseidon2-koalabear-check`, `merkle-check`, `grind-check`, `commit-check`: the GPU Poseidon2, Merkle and
// proof-of-work kernels against Plonky3's vectors and src/ref, plus bad-input codes
// (bench/support/{poseidon2,merkle,grind}-check.ts). `?maxLogH=` (merkle, default 12) and
// `?maxBits=` (grind, default 12) shrink the runs.
import type { ModeContext } from '../autorun.js';
import p2Vectors from '../../test/vectors/poseidon2.json' with { type: 'json' };
import spongeVectors from '../../test/vectors/sponge.json' with { type: 'json' };
import merkleVectors from '../../test/vectors/merkle.json' with { type: 'json' };
import challengerVectors from '../../test/vectors/challenger.json' with { type: 'json' };
import commitVectors from '../../test/vectors/encode_commit.json' with { type: 'json' };
import koalaBearVectors from '../../test/vectors/koalabear.json' with { type: 'json' };
import { checkPoseidon2, checkPoseidon2Errors, type CheckRow } from '../../bench/support/poseidon2-check.js';
import { checkPoseidon2KoalaBear, checkPoseidon2KoalaBearErrors } from '../../bench/support/poseidon2-kb-check.js';
import { checkMerkle, checkMerkleErrors, checkSponge } from '../../bench/support/merkle-check.js';
import { checkStreamedUploads } from '../../bench/support/staging-check.js';
import { sameLimits } from '../../bench/support/same-limits.js';
import { checkGrind, checkGrindErrors } from '../../bench/support/grind-check.js';
import { checkCommit, checkCommitErrors, checkCommitNttMatrix } from '../../bench/support/commit-check.js';

const emitter = (report: ModeContext['report']) => (rows: CheckRow[]) => {
  for (const r of rows) report(r.step, r.ok ? 'ok' : 'fail', r.ms, { n: r.n, detail: r.detail });
};

export async function poseidon2Check({ prover, report }: ModeContext): Promise<void> {
  const emit = emitter(report);
  emit(await checkPoseidon2(prover, p2Vectors as never));
  emit(await checkPoseidon2Errors(prover));
}

/** `poseidon2-koalabear-check`: KoalaBear's generated Poseidon2 kernels against p3-koala-bear and src/ref. */
export async function poseidon2KoalaBearCheck({ prover, report }: ModeContext): Promise<void> {
  const emit = emitter(report);
  emit(await checkPoseidon2KoalaBear(prover, koalaBearVectors as never));
  emit(await checkPoseidon2KoalaBearErrors(prover));
}

export async function merkleCheck({ prover, params, report }: ModeContext): Promise<void> {
  const emit = emitter(report);
  emit(await checkSponge(prover, spongeVectors as never));
  emit(await checkMerkle(prover, merkleVectors as never, Number(params.get('maxLogH') ?? 12)));
  emit(await checkMerkleErrors(prover));
  emit(await checkStreamedUploads(navigator.gpu, sameLimits(prover)));
}

export async function grindCheck({ prover, params, report }: ModeContext): Promise<void> {
  const emit = emitter(report);
  emit(await checkGrind(prover, challengerVectors as never, Number(params.get('maxBits') ?? 12)));
  emit(await checkGrindErrors(prover));
}

export async function commitCheck({ prover, report }: ModeContext): Promise<void> {
  const emit = emitter(report);
  emit(await checkCommit(prover, commitVectors as never));
  emit([await checkCommitNttMatrix(prover, commitVectors as never)]);
  emit(await checkCommitErrors(prover));
}
