/**
 * Dev page: `?autorun=<mode>` runs a mode at load, shows its rows, the bench table (GPU vs the
 * CPU path in this browser), a per-pass chart and the device's adapter, limits and pool; posts
 * each row to /progress, and leaves `window.__autorun` (also `window.__result`) = { finished,
 * status, runId, rows } for drivers (scripts/start.ts, Playwright tests, bench/device). The form
 * builds the same URL, so a run from the page and one from a driver are the same run.
 * @module
 */
import { MODES, runMode, type Row } from './autorun.js';
import type { BenchSummary } from './bench/harness.js';
import { BENCH_COLUMNS, benchCells, crossovers, markdownTable } from './bench/table.js';
import { renderChart } from './ui/chart.js';
import { showAdapter, showPool, showProverInfo } from './ui/device.js';
import type { ProverInfo, PoolStats } from '../src/index.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const params = new URLSearchParams(location.search);
const mode = params.get('autorun');

// The form: modes grouped by kind, the current run's parameters filled in.
const groups: Array<[string, (m: string) => boolean]> = [
  ['benches', (m) => /-bench(-gpu)?$/.test(m)],
  ['checks', (m) => m.endsWith('-check')],
  ['other', () => true],
];
const left = new Set(Object.keys(MODES));
const select = $<HTMLSelectElement>('mode');
for (const [label, test] of groups) {
  const og = Object.assign(document.createElement('optgroup'), { label });
  for (const m of [...left].filter(test)) {
    left.delete(m);
    og.append(new Option(m, m, false, m === (mode ?? 'all-bench')));
  }
  select.append(og);
}
for (const k of ['logn', 'reps'] as const) if (params.has(k)) $<HTMLInputElement>(k).value = params.get(k)!;
const extraParams = new URLSearchParams([...params].filter(([k]) => !['autorun', 'logn', 'reps', 'runId'].includes(k)));
$<HTMLInputElement>('extra').value = extraParams.toString();
$<HTMLFormElement>('run').addEventListener('submit', (e) => {
  e.preventDefault();
  const q = new URLSearchParams({ autorun: select.value });
  for (const k of ['logn', 'reps'] as const) if ($<HTMLInputElement>(k).value) q.set(k, $<HTMLInputElement>(k).value);
  for (const [k, v] of new URLSearchParams($<HTMLInputElement>('extra').value)) q.set(k, v);
  location.search = q.toString();
});

void showAdapter();

// Rows as they come; the bench table and chart redrawn from every summary so far.
const rows: Row[] = [];
const benches: BenchSummary[] = [];
const cell = (text: string, cls = '') => Object.assign(document.createElement('td'), { textContent: text, className: cls });

function addRow(r: Row): void {
  rows.push(r);
  const tr = document.createElement('tr');
  tr.append(cell(r.step), cell(r.status, r.status), cell(r.ms.toFixed(1), 'num'), cell(r.detail ?? '', 'detail'));
  document.querySelector('#results tbody')!.append(tr);
  if (r.step === 'adapter' && r.info) showProverInfo(r.info as ProverInfo);
  if (r.step === 'stats' && r.stats) showPool(r.stats as PoolStats);
  if (r.bench) {
    benches.push(r.bench as BenchSummary);
    renderBench();
  }
}

function renderBench(): void {
  $('bench-card').hidden = false;
  $('chart-card').hidden = false;
  const head = document.createElement('tr');
  // The page leaves out the median of reps (equal to ms/call unless &iters=), native and passes (the chart has them).
  const shown = BENCH_COLUMNS.map((c, i) => [c, i] as const).filter(
    ([c]) => !['GPU median ms', 'native ms', 'GPU passes (ms)'].includes(c),
  );
  // Rates are the first to go on a phone (style.css hides .rate below 520 px).
  const rate = (c: string) => (c.endsWith('elem/s') ? 'rate' : '');
  head.append(...shown.map(([c]) => Object.assign(document.createElement('th'), { textContent: c, className: rate(c) })));
  document.querySelector('#bench thead')!.replaceChildren(head);
  document.querySelector('#bench tbody')!.replaceChildren(
    ...benches.map((b) => {
      const tr = document.createElement('tr');
      const cells = benchCells(b);
      tr.append(...shown.map(([c, i]) => cell(cells[i], i < 2 ? 'name' : i === 2 ? (b.check.ok ? 'ok' : 'fail') : `num ${rate(c)}`)));
      return tr;
    }),
  );
  $('crossover').replaceChildren(...crossovers(benches).map((c) => Object.assign(document.createElement('li'), { textContent: c })));
  renderChart($('chart'), $('chart-source'), benches);
}

$('copy').addEventListener('click', async () => {
  const md = markdownTable(benches);
  const button = $<HTMLButtonElement>('copy');
  try {
    await navigator.clipboard.writeText(md);
    button.textContent = 'Copied';
  } catch {
    // No clipboard permission (an insecure origin, a headless driver): show it to copy by hand.
    const ta = Object.assign(document.createElement('textarea'), { value: md, rows: benches.length + 3 });
    ta.style.width = '100%';
    $('bench-card').append(ta);
    ta.select();
    button.textContent = 'Select and copy';
  }
  setTimeout(() => (button.textContent = 'Copy as markdown'), 2000);
});

const status = $('status');
if (mode) {
  status.textContent = `running ${mode}…`;
  status.className = 'pill running';
  runMode(mode, params, addRow).then((result) => {
    window.__autorun = window.__result = result;
    status.textContent = `${mode}: ${result.status}`;
    status.className = `pill ${result.status}`;
  });
}
