/**
 * Which JavaScript runtime the prover runs in, for NO_WEBGPU's advice (device.ts): each gets its
 * WebGPU from somewhere else, and so needs a different fix when there is none.
 * - Node: no WebGPU of its own; Dawn through the 'webgpu' package, passed as `{ gpu: create([]) }`.
 * - Deno: its own `navigator.gpu` (wgpu, flag-free since Deno 2.0; 1.39-1.46 needed
 *   --unstable-webgpu), which needs a Vulkan (Linux), Metal (macOS) or D3D12 (Windows) driver; on
 *   Linux without Vulkan wgpu falls back to OpenGL, 1.6x to over 50x slower per check here (docs/portability.md).
 * - a browser (a page or a worker): `navigator.gpu` in a secure context of a WebGPU browser.
 * @module
 */

export type RuntimeKind = 'node' | 'deno' | 'browser';

export interface Runtime {
  kind: RuntimeKind;
  /** For messages: 'Node 20.19.0', 'Deno 2.9.6', 'this browser'. */
  name: string;
}

interface RuntimeGlobals {
  Deno?: { version?: { deno?: unknown } };
  process?: { versions?: { node?: unknown; bun?: unknown } };
  document?: unknown;
}

/**
 * Deno first: it reports a Node version too (its `process` global). Then Node, and runtimes that
 * report a Node version, without a DOM (an Electron renderer has both and counts as a browser,
 * since its WebGPU is Chromium's). Anything else (a page, a worker) is a browser.
 */
export function detectRuntime(g: RuntimeGlobals = globalThis as RuntimeGlobals): Runtime {
  const deno = g.Deno?.version?.deno;
  if (typeof deno === 'string') return { kind: 'deno', name: `Deno ${deno}` };
  const versions = g.process?.versions;
  if (typeof versions?.node === 'string' && g.document === undefined) {
    return { kind: 'node', name: typeof versions.bun === 'string' ? `Bun ${versions.bun}` : `Node ${versions.node}` };
  }
  return { kind: 'browser', name: 'this browser' };
}
