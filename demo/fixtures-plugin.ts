/**
 * Vite plugin serving the committed Groth16 fixtures (test/groth16/fixtures: snarkjs zkeys, circom
 * witnesses and inputs) at /fixtures/groth16/<file>, so the dev page's groth16-check proves real
 * circuits in dev and preview. Only plain file names of those kinds are served.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Connect, Plugin } from 'vite';

const DIR = fileURLToPath(new URL('../test/groth16/fixtures/', import.meta.url));
const ROUTE = /^\/fixtures\/groth16\/([a-z0-9-]+\.(zkey|wtns|wasm|input\.json))$/;

const middleware: Connect.NextHandleFunction = (req, res, next) => {
  const m = ROUTE.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
  if (!m || req.method !== 'GET') return next();
  readFile(join(DIR, m[1])).then(
    (bytes) => {
      res.setHeader('content-type', m[2] === 'input.json' ? 'application/json' : 'application/octet-stream');
      res.end(bytes);
    },
    () => {
      res.statusCode = 404;
      res.end();
    },
  );
};

export function fixturesPlugin(): Plugin {
  return {
    name: 'webgpu-prover-fixtures',
    configureServer: (server) => void server.middlewares.use(middleware),
    configurePreviewServer: (server) => void server.middlewares.use(middleware),
  };
}
