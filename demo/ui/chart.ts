/**
 * The bar chart of bench summaries: per-pass GPU time where the adapter has timestamp-query
 * (one bar per pass, as the kernel records them), else the wall time per call of the GPU and of
 * the CPU path. Each group says which it shows; bars scale within their group (kernels differ by
 * orders of magnitude).
 * @module
 */
import type { BenchSummary } from '../bench/harness.js';
import { fmtMs } from '../bench/table.js';

function bar(label: string, ms: number, max: number, cls = ''): HTMLElement {
  const row = document.createElement('div');
  row.className = 'bar';
  const name = Object.assign(document.createElement('span'), { className: 'label', textContent: label, title: label });
  const track = Object.assign(document.createElement('span'), { className: 'track' });
  const fill = Object.assign(document.createElement('span'), { className: `fill ${cls}` });
  fill.style.display = 'block';
  fill.style.width = `${max > 0 ? (100 * ms) / max : 0}%`;
  track.append(fill);
  row.append(name, track, Object.assign(document.createElement('span'), { className: 'value', textContent: `${fmtMs(ms)} ms` }));
  return row;
}

/** Which source a summary's chart group uses. */
export function chartSource(b: BenchSummary): 'timestamp-query' | 'wall clock' {
  return b.passSource === 'timestamp-query' && b.passes.some((p) => p.ms !== null) ? 'timestamp-query' : 'wall clock';
}

export function renderChart(el: HTMLElement, sourceEl: HTMLElement, rows: BenchSummary[]): void {
  const groups = rows.map((b) => {
    const g = document.createElement('div');
    g.className = 'chart-group';
    const source = chartSource(b);
    const title = document.createElement('h4');
    title.textContent = `${b.kernel} ${b.size} · ${source === 'timestamp-query' ? 'per pass, timestamp-query' : 'per call, wall clock'}`;
    g.append(title);
    if (source === 'timestamp-query') {
      const passes = b.passes.filter((p): p is { label: string; ms: number } => p.ms !== null);
      const max = Math.max(...passes.map((p) => p.ms));
      for (const p of passes) g.append(bar(p.label, p.ms, max));
    } else {
      const max = Math.max(b.gpu.perIterMs, b.cpu?.perIterMs ?? 0);
      g.append(bar('GPU', b.gpu.perIterMs, max));
      if (b.cpu) g.append(bar('CPU path', b.cpu.perIterMs, max, 'cpu'));
    }
    return g;
  });
  const sources = new Set(rows.map(chartSource));
  sourceEl.textContent = [...sources].join(' + ');
  const legend = document.createElement('div');
  legend.className = 'legend';
  legend.innerHTML =
    '<span><i></i>GPU</span>' + (sources.has('wall clock') ? '<span><i class="cpu"></i>CPU path in this browser</span>' : '');
  el.replaceChildren(...groups, legend);
}
