/**
 * Grid shape for one-thread-per-item kernels. WebGPU caps each dispatch dimension at
 * maxComputeWorkgroupsPerDimension (65535 by default), so 2^24 items at 256 per group need
 * a 2-D grid; kernels rebuild the flat index as gid.x + gid.y * num_workgroups.x * WG.
 * @module
 */

export function grid2d(threads: number, workgroupSize: number, maxPerDim: number): [number, number] {
  const groups = Math.ceil(threads / workgroupSize);
  if (groups <= maxPerDim) return [Math.max(groups, 1), 1];
  const y = Math.ceil(groups / maxPerDim);
  return [Math.ceil(groups / y), y];
}

export function dispatch1d(pass: GPUComputePassEncoder, device: GPUDevice, threads: number, workgroupSize: number): void {
  const [x, y] = grid2d(threads, workgroupSize, device.limits.maxComputeWorkgroupsPerDimension);
  pass.dispatchWorkgroups(x, y);
}
