// The GPU NTT (SwiftShader) equals Plonky3 0.9.0-rc.2 on every dft.json case up to 2^12 rows
// (dft, idft, coset_lde with shifts 31 and 7, encode), keeps idft(dft(x)) = x through a
// GPU-resident handle, fuses bit reversal correctly, and rejects bad input with stable codes;
// the staged first pass equals src/ref and the unstaged path at widths 1, 2 and 8, and the
// two-level passes (radix R·R through workgroup memory) equal src/ref.
import { test, expect } from '@playwright/test';
import { autorun, failures } from './autorun.js';

test('GPU NTT equals Plonky3 vectors, round-trips, and rejects bad input', async ({ page }) => {
  const result = await autorun(page, 'ntt-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const rows = Object.fromEntries(result.rows.map((r) => [r.step, r]));
  // every op's vectors ran (42 dft, 42 idft, 147 coset_lde, 120 encode cases in dft.json)
  expect(rows['ntt vectors dft'].n).toBe(42);
  expect(rows['ntt vectors idft'].n).toBe(42);
  expect(rows['ntt vectors coset_lde'].n).toBe(147);
  expect(rows['ntt vectors encode'].n).toBe(120);
  expect(rows['ntt properties'].status).toBe('ok');
  expect(rows['ntt bad input'].status).toBe('ok');
  // the staged first-pass kernel at widths 1, 2, 8 (dft, idft, lde, encode), vs src/ref and unstaged
  expect(rows['ntt staged first pass'].status).toBe('ok');
  expect(rows['ntt staged first pass'].n).toBe(24);
  // table twiddles with Shoup and Montgomery multiplies, and computed twiddles: each vs src/ref
  expect(rows['ntt twiddle options'].status).toBe('ok');
  expect(rows['ntt twiddle options'].n).toBe(40);
  expect(rows['ntt fused lde'].status).toBe('ok');
  expect(rows['ntt fused lde'].n).toBe(4);
  // two-level passes (4 shapes x dft, idft, lde, encode), every twiddle source, folded padding passes, the scale in tables
  expect(rows['ntt two-level passes'].status).toBe('ok');
  expect(rows['ntt two-level passes'].n).toBe(16);
  // jobs past one binding (lowered) run in column blocks: 2 shapes x dft, idft, lde, encode
  expect(rows['ntt column blocks'].status).toBe('ok');
  expect(rows['ntt column blocks'].n).toBe(8);
  // a column past one binding: four-step pieces with GPU twists (every op, bit-reversed, short padding, four-step idft in an lde)
  expect(rows['ntt long columns'].status).toBe('ok');
  expect(rows['ntt long columns'].n).toBe(7);
  // the API past one binding: GPU-resident result in row blocks, read and reused as input; a wide dft
  expect(rows['ntt api past one binding'].status).toBe('ok');
  expect(rows['ntt api past one binding'].n).toBe(3);
});

// The same kernels over KoalaBear (field: 'koalabear'): p3-koala-bear's dft / idft / coset_lde
// vectors, src/ref on random shapes, the field's bad inputs, and the two-level (folded scale) and
// fused-lde layouts on a GpuContext.
test('GPU KoalaBear NTT equals p3-koala-bear and src/ref', async ({ page }) => {
  const result = await autorun(page, 'ntt-koalabear-check');
  expect(failures(result)).toEqual([]);
  expect(result.status).toBe('ok');
  const rows = Object.fromEntries(result.rows.map((r) => [r.step, r]));
  expect(rows['ntt koalabear vectors'].n).toBe(18); // 6 cases x dft, idft, coset_lde
  expect(rows['ntt koalabear random'].n).toBe(15);
  expect(rows['ntt koalabear bad input'].n).toBe(10);
  expect(rows['ntt koalabear layouts'].n).toBe(4);
});
