// The CPU anchor of the groth16 suite: snarkjs 0.7.6's own prover (ffjavascript's wasm on every
// core through worker threads) on a zkey and a witness, timed per proof, in a process of its own.
//   node bench/dist/snarkjs-prove.cjs ZKEY WTNS REPS [verify]   -> one JSON line { ms: [...], verified }
// Bundled as CommonJS (npm run bench:bundle): snarkjs's worker threads start from this same file.
const { isMainThread } = require('node:worker_threads');
const snarkjs = require('snarkjs');

async function main() {
  const fs = require('node:fs');
  const [zkeyPath, wtnsPath, reps = '1', verify] = process.argv.slice(2);
  const zkey = { type: 'mem', data: fs.readFileSync(zkeyPath) };
  const wtns = { type: 'mem', data: fs.readFileSync(wtnsPath) };
  const ms = [];
  let out;
  for (let i = 0; i < Number(reps); i++) {
    const t0 = performance.now();
    out = await snarkjs.groth16.prove(zkey, wtns);
    ms.push(performance.now() - t0);
  }
  let verified = null;
  if (verify === 'verify') {
    const vk = await snarkjs.zKey.exportVerificationKey(zkey);
    verified = await snarkjs.groth16.verify(vk, out.publicSignals, out.proof);
  }
  console.log(JSON.stringify({ ms, verified }));
  await globalThis.curve_bn128?.terminate();
}

if (isMainThread)
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
