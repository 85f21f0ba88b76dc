/**
 * The host-side verification work a checked job hands to the check thread (check-thread.ts), as
 * messages both threads read: a WHIR round's openings (whir/stir-claims.ts) and the two parts of a
 * Groth16 check that need less than the whole proof (groth16/check-parts.ts). `runCheckTask`
 * answers a task the same in either thread; a family's code is loaded by its first task, so a
 * page that only proves WHIR does not load the curve.
 * @module
 */
import { Reject, stirClaims, type SelectClaim, type StirInput } from '../whir/stir-claims.js';
import type { Groth16Answer, Groth16Task } from '../groth16/check-parts.js';

export type CheckTask = { kind: 'stir'; input: StirInput } | Groth16Task;

export type CheckAnswer = { kind: 'stir'; claims: SelectClaim[] } | { kind: 'stir'; reject: string } | Groth16Answer;

/** A task's answer (a bad proof is an answer too: a rejection, a null loop). */
export async function runCheckTask(task: CheckTask): Promise<CheckAnswer> {
  if (task.kind !== 'stir') return (await import('../groth16/check-parts.js')).runGroth16Task(task);
  try {
    return { kind: 'stir', claims: stirClaims(task.input) };
  } catch (e) {
    return { kind: 'stir', reject: e instanceof Reject ? e.message : `${task.input.what}: ${(e as Error).message}` };
  }
}
