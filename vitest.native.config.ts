// The native Groth16 tools' own check (bench/native: the benchmark's seeded setup and its arkworks
// anchor), kept out of `npm test`: its first run builds the Rust crate (several minutes on 2 cores).
// `npm run test:native` before taking the tools to a benchmark machine.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/native/**/*.test.ts'],
    testTimeout: 600_000,
  },
});
