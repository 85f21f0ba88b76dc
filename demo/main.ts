/**
 * Dev page: `?autorun=<mode>` runs a mode at load, shows its rows in a table, posts each row
 * to /progress, and leaves `window.__autorun` = { finished, status, runId, rows } for drivers
 * (scripts/start.ts, Playwright tests, the device bench driver). Without `autorun` it lists
 * the modes as links.
 * @module
 */
import { MODES, runMode, type AutorunResult } from './autorun.js';

declare global {
  interface Window { __autorun?: AutorunResult; __result?: AutorunResult }
}

const params = new URLSearchParams(location.search);
const mode = params.get('autorun');
const modesEl = document.getElementById('modes')!;
modesEl.innerHTML = Object.keys(MODES).map((m) => `<a href="?autorun=${m}">${m}</a>`).join(' · ');

const tbody = document.querySelector('#results tbody')!;
function addRow(r: { mode: string; step: string; status: string; ms: number; detail?: string }) {
  const tr = document.createElement('tr');
  for (const [v, cls] of [[r.mode], [r.step], [r.status, r.status], [r.ms.toFixed(1)], [r.detail ?? '']] as const) {
    const td = document.createElement('td');
    td.textContent = String(v);
    if (cls) td.className = cls;
    tr.appendChild(td);
  }
  tbody.appendChild(tr);
}

if (mode) {
  document.getElementById('status')!.textContent = `running ${mode}…`;
  runMode(mode, params, addRow).then((result) => {
    window.__autorun = window.__result = result;
    document.getElementById('status')!.textContent = `${mode}: ${result.status}`;
  });
}
