/**
 * The check thread's entry (started by check-thread.ts): answers each `{ id, task }` message with
 * `{ id, answer }` from runCheckTask, as a Web Worker (pages, the prover's own worker, Deno) or a
 * Node worker thread.
 * @module
 */
import { runCheckTask, type CheckTask } from './check-tasks.js';

interface Port {
  postMessage(message: unknown): void;
}

interface NodeParentPort extends Port {
  on(event: 'message', listener: (message: unknown) => void): void;
}

async function answer(port: Port, message: unknown): Promise<void> {
  const { id, task } = message as { id: number; task: CheckTask };
  try {
    port.postMessage({ id, answer: await runCheckTask(task) });
  } catch (e) {
    port.postMessage({ id, error: String((e as Error)?.message ?? e) });
  }
}

// A specifier in a variable, and the comments: bundlers for the web leave Node's module alone.
const NODE_THREADS = 'node:worker_threads';
const inWebWorker = typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined';

if (inWebWorker) {
  const scope = globalThis as unknown as Port & { onmessage: ((e: MessageEvent) => void) | null };
  scope.onmessage = (e) => void answer(scope, e.data);
} else {
  const { parentPort } = (await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_THREADS)) as { parentPort: NodeParentPort };
  parentPort.on('message', (message) => void answer(parentPort, message));
}
