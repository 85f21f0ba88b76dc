/**
 * One browser page on a target: a Chromium launched here, any Playwright browser server
 * (`browserType.launchServer()` on a phone's host or another machine), or a BrowserStack device.
 * The caller closes the session; a stalled run's session is closed and a new one opened.
 * @module
 */
import { _android, chromium, firefox, webkit, type Page } from 'playwright-core';
import { chromiumArgs, findChromium } from '../../scripts/chromium.mjs';
import { browserStackConnect, type BrowserKind, type Target } from './config.js';

export interface Session {
  page: Page;
  close(): Promise<void>;
}

export interface SessionOptions {
  headless: boolean;
  /** BrowserStack: the page is this machine's dev server, through BrowserStack Local. */
  local: boolean;
  build: string;
  name: string;
}

async function connect(browser: BrowserKind, wsEndpoint: string): Promise<Session> {
  if (browser === 'android') {
    const device = await _android.connect(wsEndpoint);
    const context = await device.launchBrowser();
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      page,
      close: async () => {
        await context.close().catch(() => {});
        await device.close();
      },
    };
  }
  const type = { chromium, webkit, firefox }[browser];
  const b = await type.connect(wsEndpoint, { timeout: 120_000 });
  const page = await b.newPage();
  return { page, close: () => b.close() };
}

export async function openSession(t: Target, o: SessionOptions): Promise<Session> {
  if (t.kind === 'local-chromium') {
    const executablePath = findChromium();
    if (!executablePath) throw new Error('No Chrome/Chromium found: install one or set CHROMIUM_PATH.');
    const b = await chromium.launch({ executablePath, headless: o.headless, args: chromiumArgs() });
    const page = await b.newPage();
    return { page, close: () => b.close() };
  }
  if (t.kind === 'ws') return connect(t.browser, t.wsEndpoint);
  return connect(t.browser, browserStackConnect(t, o).wsEndpoint);
}
