/**
 * The GPU's SM clock during a benchmark, from `nvidia-smi` where the machine has it (the H100
 * machine does; elsewhere every figure is null). Why: the H100's clock follows its load, and a
 * job that leaves gaps between submits (an MSM's A/B loop: readback, checks) can run at 600-900
 * MHz instead of 1980 for seconds (the "slow state" recorded on 2026-11-22 in 675271c and
 * fa658d2, H100: the walk read 53 ms at ~720 MHz and 21 ms at 1980). Rows carry the median clock
 * of the samples inside their time span, so two figures are compared only at the same clock.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';

interface Sample {
  at: number;
  mhz: number;
}

export class ClockSampler {
  private readonly samples: Sample[] = [];
  private proc: ChildProcess | null = null;
  private buf = '';

  /** Starts sampling every `everyMs` (nvidia-smi's own timestamps, so pipe buffering does not skew them). */
  static start(everyMs = 100): ClockSampler {
    const s = new ClockSampler();
    try {
      const p = spawn('nvidia-smi', ['--query-gpu=timestamp,clocks.sm', '--format=csv,noheader,nounits', `-lms`, String(everyMs)], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      p.on('error', () => {
        s.proc = null;
      });
      p.stdout?.on('data', (d: Buffer) => s.take(d.toString()));
      p.unref();
      s.proc = p;
    } catch {
      s.proc = null;
    }
    return s;
  }

  private take(text: string): void {
    this.buf += text;
    const lines = this.buf.split('\n');
    this.buf = lines.pop() ?? '';
    for (const line of lines) {
      const [ts, mhz] = line.split(',').map((x) => x.trim());
      // "2026/11/22 06:46:58.123", the machine's local time, like Date.now()'s.
      const at = new Date(ts.replace(/\//g, '-').replace(' ', 'T')).getTime();
      const v = Number(mhz);
      if (Number.isFinite(at) && Number.isFinite(v)) this.samples.push({ at, mhz: v });
    }
  }

  /** Median SM clock (MHz) of the samples within the spans [t0, t1] (Date.now() times; e.g. the A runs of an A/B), null if none. */
  median(spans: [number, number][]): number | null {
    const v = this.samples
      .filter((s) => spans.some(([a, b]) => s.at >= a && s.at <= b))
      .map((s) => s.mhz)
      .sort((a, b) => a - b);
    return v.length ? v[v.length >> 1] : null;
  }

  stop(): void {
    this.proc?.kill();
    this.proc = null;
  }
}

/** Runs `body` with a sampler started (every `everyMs`) and stopped afterwards, however it ends. */
export async function withClock<T>(body: (clock: ClockSampler) => Promise<T>, everyMs = 50): Promise<T> {
  const clock = ClockSampler.start(everyMs);
  try {
    return await body(clock);
  } finally {
    clock.stop();
  }
}
