/**
 * The check thread: a second thread for the host-side verification of checked results (a WHIR
 * round's openings, the parts of a Groth16 pairing that need less than the whole proof), so that
 * it runs while the prover's thread goes on driving the GPU instead of after the job. One per
 * thread that proves (a page, the prover's worker, a Node process), started by its first task:
 * a Web Worker where `Worker` exists, a Node worker thread in Node (unreferenced while idle, so
 * it never keeps a process alive). Where neither starts (no workers, a bundler that did not emit
 * check-worker.js, a failed load), each task runs in this thread instead, in a later macrotask:
 * the same answers, later. A task's answer never depends on where it ran (check-tasks.ts).
 * @module
 */
import { nextTask } from '../gpu/next-task.js';
import { runCheckTask, type CheckAnswer, type CheckTask } from './check-tasks.js';
import { checkThreadStats } from './check-thread-state.js';

interface Endpoint {
  post(message: unknown): void;
  /** Node: keep the process alive while answers are due. */
  busy(yes: boolean): void;
}

interface NodeWorker {
  postMessage(message: unknown): void;
  on(event: 'message' | 'error' | 'exit', listener: (value: unknown) => void): void;
  ref(): void;
  unref(): void;
}

type Answer = { id: number; answer?: CheckAnswer; error?: string };

/** A task sent to the thread: what to run here if the thread fails, and its answer's deadline. */
interface Waiting {
  task: CheckTask;
  resolve: (a: CheckAnswer) => void;
  timer?: ReturnType<typeof setTimeout>;
}

const pending = new Map<number, Waiting>();
let nextId = 1;
let endpoint: Promise<Endpoint | null> | undefined;

/** `task`'s answer, from the check thread when it runs. */
export async function checkTask(task: CheckTask): Promise<CheckAnswer> {
  const to = await (endpoint ??= start());
  if (!to || checkThreadStats.state === 'unavailable') return inThisThread(task);
  return new Promise((resolve) => {
    const id = nextId++;
    const waiting: Waiting = { task, resolve };
    pending.set(id, waiting);
    to.busy(true);
    try {
      to.post({ id, task });
    } catch (e) {
      giveUp(`a task could not be sent: ${(e as Error).message}`);
      return;
    }
    // A thread that never answers (a message it could not read) must not hold a proof forever.
    waiting.timer = setTimeout(() => giveUp(`a task went unanswered for ${UNANSWERED_MS} ms`), UNANSWERED_MS);
    (waiting.timer as { unref?: () => void }).unref?.();
  });
}

/** Far above any task's time (a WHIR round's openings: milliseconds; the thread's start: ~0.1 s). */
const UNANSWERED_MS = 10_000;

async function inThisThread(task: CheckTask): Promise<CheckAnswer> {
  await nextTask();
  checkThreadStats.inThread++;
  return await runCheckTask(task);
}

function received(to: Endpoint, message: Answer): void {
  const waiting = pending.get(message.id);
  if (!waiting) return;
  clearTimeout(waiting.timer);
  pending.delete(message.id);
  if (pending.size === 0) to.busy(false);
  if (message.answer) {
    checkThreadStats.onThread++;
    waiting.resolve(message.answer);
  } else {
    void inThisThread(waiting.task).then(waiting.resolve);
  }
}

/** The thread failed: it takes no more tasks, and those it held run here. */
function giveUp(why: string): void {
  if (checkThreadStats.state === 'unavailable') return;
  checkThreadStats.state = 'unavailable';
  checkThreadStats.why = why;
  endpoint = Promise.resolve(null);
  for (const [id, { task, resolve, timer }] of pending) {
    clearTimeout(timer);
    pending.delete(id);
    void inThisThread(task).then(resolve);
  }
}

// The Node module's name in a variable, and the comments: bundlers for the web leave it alone.
const NODE_THREADS = 'node:worker_threads';
const WORKER_FILE = './check-worker.js';

async function start(): Promise<Endpoint | null> {
  try {
    if (typeof Worker === 'function') {
      // Written in one piece, as spawn.ts's, so bundlers emit check-worker.js as a worker chunk.
      const w = new Worker(new URL('./check-worker.js', import.meta.url), { type: 'module', name: 'webgpu-prover-checks' });
      const to: Endpoint = { post: (m) => w.postMessage(m), busy: () => {} };
      w.onmessage = (e: MessageEvent) => received(to, e.data as Answer);
      w.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        giveUp(`the check worker failed: ${e.message || 'its script did not load'}`);
        w.terminate();
      };
      checkThreadStats.state = 'running';
      return to;
    }
    const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
    if (node) {
      const threads = (await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_THREADS)) as {
        Worker: new (url: URL) => NodeWorker;
      };
      const w = new threads.Worker(new URL(WORKER_FILE, import.meta.url));
      w.unref();
      const to: Endpoint = { post: (m) => w.postMessage(m), busy: (yes) => (yes ? w.ref() : w.unref()) };
      w.on('message', (m) => received(to, m as Answer));
      w.on('error', (e) => giveUp(`the check thread failed: ${(e as Error).message}`));
      w.on('exit', () => giveUp('the check thread exited'));
      checkThreadStats.state = 'running';
      return to;
    }
    giveUp('no Web Workers or Node worker threads here');
  } catch (e) {
    giveUp(`the check thread did not start: ${(e as Error).message}`);
  }
  return null;
}
