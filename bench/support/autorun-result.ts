/**
 * What the dev page's autorun leaves for its drivers: the rows each mode reports and the result
 * in `window.__autorun`. The page (demo/autorun.ts, demo/main.ts) writes it; the e2e specs,
 * `npm start` (scripts/browser-driver.ts) and the device bench driver read it, so it lives here,
 * beside the checks they share, and no test imports the page's code for its types.
 * @module
 */

export interface Row {
  mode: string;
  step: string;
  status: 'start' | 'ok' | 'fail' | 'error' | 'done' | 'info';
  ms: number;
  detail?: string;
  [extra: string]: unknown;
}

export interface AutorunResult {
  finished: true;
  status: 'ok' | 'fail' | 'error';
  runId: string;
  mode: string;
  adapter: string;
  rows: Row[];
}

declare global {
  interface Window {
    __autorun?: AutorunResult;
    __result?: AutorunResult;
  }
}
