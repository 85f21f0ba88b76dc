// Shared by the e2e specs: open an autorun mode and return window.__autorun once it finishes.
import type { Page } from '@playwright/test';
import type { AutorunResult } from '../../bench/support/autorun-result.js';

export async function autorun(page: Page, mode: string, params: Record<string, string> = {}): Promise<AutorunResult> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`/?${new URLSearchParams({ autorun: mode, ...params })}`);
  await page.waitForFunction(() => window.__autorun?.finished === true, null, { timeout: 9 * 60_000, polling: 250 });
  const result = (await page.evaluate(() => window.__autorun))!;
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  return result;
}

/** Rows that are checks (ok or fail), with failures first for readable assertion output. */
export function failures(result: AutorunResult): string[] {
  return result.rows.filter((r) => r.status === 'fail' || r.status === 'error').map((r) => `${r.step}: ${r.detail}`);
}
