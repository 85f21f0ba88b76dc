// NO_WEBGPU says what to do where the user is (issue 30, item 6): in Node, Dawn's cause (no
// Vulkan / Metal / D3D12 driver) and its fix, with Dawn's own reason when it gave one; in a
// browser, the browser's message. vitest runs in Node; the browser case stubs a DOM global.
import { describe, it, expect, afterEach, vi } from 'vitest';
import { createProver, isProverError, type ProverError } from '../../src/index.js';

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
    expect(e.message).toMatch(/^requestAdapter failed: WebGPU is disabled by policy\. /);
    expect(e.message).toContain("{ fallback: 'cpu' }");
    expect(e.message).not.toMatch(/Dawn|Vulkan/);
  });
});
