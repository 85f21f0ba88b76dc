// NO_WEBGPU says what to do where the user is (issue 30, item 6) and names the runtime: in Node,
// Dawn's cause (no Vulkan / Metal / D3D12 driver) and its fix, with Dawn's own reason when it gave
// one; in Deno, its own WebGPU (wgpu) and a driver, never the 'webgpu' package; in a browser, the
// browser's message and a secure context. vitest runs in Node; the browser case stubs a DOM
// global, the Deno case a Deno global.
import { describe, it, expect, afterEach, vi } from 'vitest';
import { createProver, isProverError, type ProverError } from '../../src/index.js';
import { detectRuntime } from '../../src/gpu/runtime.js';

/** The ProverError createProver rejects with for this fake GPU entry point. */
async function failure(gpu: unknown): Promise<ProverError> {
  try {
    await createProver({ gpu: gpu as GPU });
  } catch (e) {
    if (isProverError(e)) return e;
    throw e;
  }
  throw new Error('createProver resolved');
}

const resolvesNull = { requestAdapter: async () => null };
const rejects = {
  requestAdapter: async () => {
    throw new Error('Dawn: no backend could be initialized');
  },
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('NO_WEBGPU in Node', () => {
  it('names the missing driver and the fix when requestAdapter resolves null', async () => {
    const e = await failure(resolvesNull);
    expect(e.code).toBe('NO_WEBGPU');
    expect(e.message).toContain(`in Node ${process.versions.node}`);
    expect(e.message).toMatch(/Dawn/);
    expect(e.message).toMatch(/Vulkan/);
    expect(e.message).toMatch(/Metal/);
    expect(e.message).toMatch(/D3D12/);
    expect(e.message).toMatch(/libvulkan1/);
    expect(e.message).toMatch(/browser/);
    // Dawn printed its reason on stderr: the message says where to look.
    expect(e.message).toMatch(/stderr/);
    expect(e.message).not.toMatch(/chrome:\/\/gpu/);
  });

  it("includes Dawn's reason when requestAdapter rejects", async () => {
    const e = await failure(rejects);
    expect(e.code).toBe('NO_WEBGPU');
    expect(e.message).toContain('Dawn: no backend could be initialized');
    expect(e.message).toMatch(/Vulkan/);
    expect(e.message).toMatch(/libvulkan1/);
    expect(e.message).not.toMatch(/chrome:\/\/gpu/);
    expect((e as Error & { cause?: unknown }).cause).toBeInstanceOf(Error);
  });

  it('tells how to get a GPU object when there is none', async () => {
    const e = await failure(undefined);
    expect(e.code).toBe('NO_WEBGPU');
    expect(e.message).toContain('create([])');
    expect(e.message).toMatch(/'webgpu' package/);
    expect(e.message).toContain(`Node ${process.versions.node} has no navigator.gpu`);
  });
});

describe('NO_WEBGPU in Deno', () => {
  // Deno has a `process` global with a Node version too: the Deno global must win.
  const deno = () => vi.stubGlobal('Deno', { version: { deno: '2.9.6' } });

  it('names Deno, its wgpu, the driver and the OpenGL fallback when there is no adapter', async () => {
    deno();
    const wgpuRejects = {
      requestAdapter: async () => {
        throw new Error('no suitable adapter found');
      },
    };
    for (const gpu of [resolvesNull, wgpuRejects]) {
      const e = await failure(gpu);
      expect(e.code).toBe('NO_WEBGPU');
      expect(e.message).toMatch(/^No WebGPU adapter in Deno 2\.9\.6: its WebGPU \(wgpu\)/);
      expect(e.message).toMatch(/Vulkan on Linux, Metal on macOS, D3D12 on Windows/);
      expect(e.message).toContain('mesa-vulkan-drivers');
      expect(e.message).toContain('lavapipe');
      expect(e.message).toMatch(/falls back to OpenGL/);
      expect(e.message).toContain('DENO_WEBGPU_BACKEND');
      expect(e.message).toContain("{ fallback: 'cpu' }");
      // Not Node's advice: Deno brings its own WebGPU.
      expect(e.message).not.toMatch(/Dawn|'webgpu' package|create\(\[\]\)|chrome:\/\/gpu/);
    }
    expect((await failure(wgpuRejects)).message).toContain("wgpu's reason: no suitable adapter found");
    expect((await failure(resolvesNull)).message).toContain('none of its backends loaded');
  });

  it('says which Deno has WebGPU when navigator.gpu is missing', async () => {
    deno();
    const e = await failure(undefined);
    expect(e.message).toMatch(/^WebGPU is not available: Deno 2\.9\.6 has no navigator\.gpu/);
    expect(e.message).toContain('Deno 2.0 or later');
    expect(e.message).toContain('--unstable-webgpu');
    expect(e.message).not.toMatch(/'webgpu' package/);
  });
});

describe('NO_WEBGPU in a browser', () => {
  it("keeps the browser's advice and message", async () => {
    vi.stubGlobal('document', {});
    expect((await failure(resolvesNull)).message).toMatch(/chrome:\/\/gpu/);
    const e = await failure({
      requestAdapter: async () => {
        throw new Error('WebGPU is disabled by policy');
      },
    });
    expect(e.message).toMatch(/^requestAdapter failed in this browser: WebGPU is disabled by policy\. /);
    expect(e.message).toContain("{ fallback: 'cpu' }");
    expect(e.message).not.toMatch(/Dawn|Vulkan|Deno/);
  });

  it('asks for a WebGPU browser and a secure context when there is no navigator.gpu', async () => {
    vi.stubGlobal('document', {});
    const e = await failure(undefined);
    expect(e.message).toMatch(/^WebGPU is not available in this browser: /);
    expect(e.message).toMatch(/secure context/);
    expect(e.message).toMatch(/https or from localhost/);
    expect(e.message).not.toMatch(/Dawn|Deno/);
  });
});

describe('detectRuntime', () => {
  it('tells Deno (which reports a Node version too), Node, Bun, Electron and browsers apart', () => {
    expect(detectRuntime({ Deno: { version: { deno: '2.9.6' } }, process: { versions: { node: '26.3.0' } } })).toEqual({
      kind: 'deno',
      name: 'Deno 2.9.6',
    });
    expect(detectRuntime({ process: { versions: { node: '20.19.0' } } })).toEqual({ kind: 'node', name: 'Node 20.19.0' });
    expect(detectRuntime({ process: { versions: { node: '24.3.0', bun: '1.3.0' } } })).toEqual({ kind: 'node', name: 'Bun 1.3.0' });
    // An Electron renderer: Node's process and a DOM; its WebGPU is Chromium's.
    expect(detectRuntime({ process: { versions: { node: '22.0.0' } }, document: {} }).kind).toBe('browser');
    expect(detectRuntime({})).toEqual({ kind: 'browser', name: 'this browser' });
    expect(detectRuntime().kind).toBe('node'); // vitest itself
  });
});
