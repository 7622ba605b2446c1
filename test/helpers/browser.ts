// Real Chromium for the dashboard's tests: Debian's `chromium` package, driven by playwright-core. The
// flags keep Chromium from reaching out (component updates, sync, background fetches, QUIC): this
// machine's network is closed, and a test must not depend on anything but Herald on 127.0.0.1.
// Playwright gives every launch a fresh, temporary --user-data-dir of its own (it refuses one in `args`)
// and removes it when the browser closes.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.HERALD_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why browser tests cannot run here, or null when they can. */
export function browserMissing(): string | null {
  return existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, timeout: 60_000 });
}

export async function newContext(browser: Browser, options: { timezoneId?: string; locale?: string } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    timezoneId: options.timezoneId ?? 'UTC',
    locale: options.locale ?? 'en-GB',
    viewport: { width: 1100, height: 760 },
    deviceScaleFactor: 1,
  });
  context.setDefaultTimeout(30_000);
  return context;
}

/** Signs in through the form, as a person does. */
export async function signInThroughForm(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/app`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core in the page and returns the serious and critical violations. The source is evaluated
 * through the DevTools protocol, which the page's Content-Security-Policy does not govern, so the policy
 * stays as strict as it is for users.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const result = await axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n: any) => ({ target: n.target, failureSummary: n.failureSummary })) }));
  })) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
