/**
 * Debian's Chromium driven by playwright-core (no browser download). Absent Chromium skips the
 * browser tests with a message, except under CI=true, where it fails them: CI installs it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createClient, type ExchangeClient } from '../../src/client/index.ts';
import type { TestServer } from '../helpers/server.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = 'test-results/screenshots';

/** Why the browser tests cannot run here, or undefined when they can. */
export function skipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `${CHROMIUM} is missing (apt-get install -y chromium)`;
  if (process.env.CI === 'true') throw new Error(`browser tests cannot run in CI: ${reason}`);
  return `skipped: ${reason}`;
}

/** Playwright gives every launch a fresh temporary profile (its own --user-data-dir). */
export function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * A page that records what would be a bug: console errors, uncaught exceptions and 5xx answers.
 * A 4xx the app asked for is an answer it shows in words (a refused order, say), and Chromium logs
 * it as "Failed to load resource"; those lines are kept apart, not counted as errors, but every
 * 4xx answer is listed in `refused` (with its error code, once its body arrived), so a test can
 * say that loading a page asked for none.
 */
export interface WatchedPage {
  page: Page;
  errors: string[];
  refused: string[];
}

export async function watchedPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) return;
    errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 500) errors.push(`${response.status()} from ${response.url()}`);
    else if (response.status() >= 400) {
      // The error's code follows when its body arrives: a failure then says why (an unknown key, a replay, the clock).
      const answer = `${response.status()} from ${response.request().method()} ${response.url()}`;
      const at = refused.push(answer) - 1;
      response.json().then((body: { code?: string; message?: string }) => (refused[at] = `${answer} (${body.code}: ${body.message})`), () => {});
    }
  });
  return { page, errors, refused };
}

/**
 * Signs the page in as the dev wallet of `key` (the app keeps its key in localStorage): the home
 * page, the key stored, the sign-in button pressed, and gone once signed in.
 */
export async function signInWithKey(page: Page, serverUrl: string, key: string): Promise<void> {
  await page.goto(serverUrl);
  await page.evaluate(`localStorage.setItem('pmx.devWalletKey', '${key}')`);
  await page.getByRole('button', { name: 'Sign in with dev wallet' }).click();
  await page.getByRole('button', { name: 'Sign in with dev wallet' }).waitFor({ state: 'detached' });
}

/** A browser and one watched page in it (openBrowser, openSignedIn); `close` ends both. */
export interface OpenBrowser extends WatchedPage {
  /** The page's context: another tab opens in it. */
  context: BrowserContext;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** The reader's time zone, where it is not the machine's. */
  timezoneId?: string;
  /** Runs in every document before the app's own scripts (a recorder of canvas text, say). */
  initScript?: string;
  /** Readies the context before its page opens: its clock, its permissions, an injected wallet. */
  prepare?: (context: BrowserContext) => Promise<unknown>;
}

/** Chromium with one watched page at desktop width, its context readied as `options` say. */
export async function openBrowser(options: OpenOptions = {}): Promise<OpenBrowser> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: DESKTOP, timezoneId: options.timezoneId });
    if (options.initScript) await context.addInitScript(options.initScript);
    await options.prepare?.(context);
    const watched = await watchedPage(context);
    return { ...watched, context, close: () => context.close().then(() => browser.close()) };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** openBrowser's page, signed in as the dev wallet of `key`. */
export async function openSignedIn(serverUrl: string, key: string, options: OpenOptions = {}): Promise<OpenBrowser> {
  const opened = await openBrowser(options);
  try {
    await signInWithKey(opened.page, serverUrl, key);
    return opened;
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** A trader acting through the SDK with an API key (of the wallet of `key`, or a new one), credited `fund` USDC. */
export async function fundedTrader(server: TestServer, admin: ExchangeClient, key = generatePrivateKey(), fund = '10000'): Promise<ExchangeClient> {
  const account = privateKeyToAccount(key);
  const signer = createClient({ baseUrl: server.url, account });
  await signer.auth.signIn();
  await admin.admin.credit(account.address, fund);
  return createClient({ baseUrl: server.url, credentials: { apiKey: await signer.auth.createApiKey() } });
}

/**
 * Screenshots of the page at desktop and phone width, into the git-ignored test-results folder:
 * the whole page, and the phone's first screen as a phone shows it (a full-page shot draws fixed
 * elements, such as the market page's Buy bar, where the first screen ends, not at the bottom).
 */
export async function screenshots(page: Page, name: string): Promise<void> {
  const before = page.viewportSize() ?? DESKTOP;
  for (const [label, size] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-phone-screen.png` });
  await page.setViewportSize(before);
}

/**
 * Waits for `done`, asked from the test: page.waitForFunction would compile its predicate inside
 * the page, which the app's Content-Security-Policy (no 'unsafe-eval') rightly refuses.
 */
export async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}
