/**
 * Device targets: read from bench/device/targets.json (or --config), checked, and turned into
 * what a session needs. A BrowserStack target becomes a Playwright wsEndpoint whose `caps` query
 * carries its capability preset, the credentials from the environment, the Playwright version of
 * this client and whether the page is reached through BrowserStack Local.
 * @module
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export type BrowserKind = 'chromium' | 'webkit' | 'firefox' | 'android';

export type Target =
  | { name: string; kind: 'local-chromium' }
  | { name: string; kind: 'ws'; browser: BrowserKind; wsEndpoint: string }
  | { name: string; kind: 'browserstack'; browser: BrowserKind; caps: Record<string, string> };

export const DEFAULT_CONFIG = new URL('./targets.json', import.meta.url).pathname;
/** BrowserStack's Playwright endpoint; BROWSERSTACK_WS_BASE replaces it (the tests' fake endpoint). */
export const BROWSERSTACK_WS = 'wss://cdp.browserstack.com/playwright';

const BROWSERS: readonly BrowserKind[] = ['chromium', 'webkit', 'firefox', 'android'];

/** "$NAME" values come from the environment, so a config file holds no endpoint secrets. */
function fromEnv(v: string, env: NodeJS.ProcessEnv, what: string): string {
  if (!v.startsWith('$')) return v;
  const got = env[v.slice(1)];
  if (!got) throw new Error(`${what} is ${v}: set ${v.slice(1)} (e.g. ${v.slice(1)}=ws://phone.local:3000/abc)`);
  return got;
}

/** The named target of a config file, checked. */
export function loadTarget(name: string, file = DEFAULT_CONFIG, env = process.env): Target {
  const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const names = Object.keys(all).filter((k) => !k.startsWith('$'));
  const t = all[name] as Record<string, unknown> | undefined;
  if (!t || name.startsWith('$')) throw new Error(`unknown target "${name}" in ${file}; targets: ${names.join(', ')}`);
  const browser = (t.browser ?? 'chromium') as BrowserKind;
  if (!BROWSERS.includes(browser))
    throw new Error(`target ${name}: browser must be one of ${BROWSERS.join(', ')}, got ${String(t.browser)}`);
  if (t.kind === 'local-chromium') return { name, kind: 'local-chromium' };
  if (t.kind === 'ws') {
    if (typeof t.wsEndpoint !== 'string')
      throw new Error(`target ${name}: kind ws needs a wsEndpoint (a Playwright browser server's ws:// URL)`);
    return { name, kind: 'ws', browser, wsEndpoint: fromEnv(t.wsEndpoint, env, `target ${name}'s wsEndpoint`) };
  }
  if (t.kind === 'browserstack') {
    const caps = t.caps as Record<string, string> | undefined;
    if (!caps || typeof caps !== 'object')
      throw new Error(`target ${name}: kind browserstack needs caps (a BrowserStack capability object)`);
    return { name, kind: 'browserstack', browser, caps };
  }
  throw new Error(`target ${name}: kind must be local-chromium, ws or browserstack, got ${String(t.kind)}`);
}

/** BrowserStack's credentials, or an error that says where to get them. */
export function browserStackCredentials(env = process.env): { username: string; accessKey: string } {
  const username = env.BROWSERSTACK_USERNAME;
  const accessKey = env.BROWSERSTACK_ACCESS_KEY;
  if (!username || !accessKey) {
    const missing = [!username && 'BROWSERSTACK_USERNAME', !accessKey && 'BROWSERSTACK_ACCESS_KEY'].filter(Boolean).join(' and ');
    throw new Error(
      `BrowserStack targets need ${missing} in the environment (your username and access key: https://www.browserstack.com/accounts/settings). Nothing was sent.`,
    );
  }
  return { username, accessKey };
}

export function playwrightVersion(): string {
  return (createRequire(import.meta.url)('playwright-core/package.json') as { version: string }).version;
}

export interface BrowserStackConnect {
  wsEndpoint: string;
  caps: Record<string, string>;
}

/**
 * The endpoint a BrowserStack target connects to. `local`: the page is this machine's dev
 * server, reached through a BrowserStack Local tunnel the user started (`BrowserStackLocal
 * --key $BROWSERSTACK_ACCESS_KEY`); otherwise a public URL the user gave.
 */
export function browserStackConnect(
  t: Extract<Target, { kind: 'browserstack' }>,
  o: { local: boolean; build: string; name: string },
  env = process.env,
): BrowserStackConnect {
  const { username, accessKey } = browserStackCredentials(env);
  const caps: Record<string, string> = {
    ...t.caps,
    'browserstack.username': username,
    'browserstack.accessKey': accessKey,
    'browserstack.local': String(o.local),
    ...(env.BROWSERSTACK_LOCAL_IDENTIFIER ? { 'browserstack.localIdentifier': env.BROWSERSTACK_LOCAL_IDENTIFIER } : {}),
    'client.playwrightVersion': playwrightVersion(),
    build: o.build,
    name: o.name,
  };
  const base = env.BROWSERSTACK_WS_BASE ?? BROWSERSTACK_WS;
  return { wsEndpoint: `${base}?caps=${encodeURIComponent(JSON.stringify(caps))}`, caps };
}
