/**
 * Headless Chromium for end-to-end tests of pages served on 127.0.0.1: Debian's `chromium`
 * package (`/usr/bin/chromium`, installed by `.ci/services/chromium.sh`) driven through
 * playwright-core with `executablePath`; nothing downloads a browser. Each launch gets a new
 * empty profile (`userDataDir`, removed on close) and the flags this machine needs: without
 * the background-networking ones Chromium keeps dialling Google's hosts, which the closed
 * network refuses.
 */
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's package puts the browser (`CHROMIUM_PATH` overrides). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every launch passes (besides headless and the profile). */
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Throw a clear error when the browser is missing (the tests need the Debian package). */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium package (apt-get install -y chromium; .ci/services/chromium.sh does it in CI)`);
}

/** A running browser: one context (a fresh profile) and a way to end it. */
export interface Browser {
  context: BrowserContext;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Launch headless Chromium with a new empty profile. `bypassCSP` lets a test inject a script
 * into a page whose Content-Security-Policy forbids inline scripts (axe-core); `colorScheme`
 * picks the light or dark media query.
 */
export async function launchChromium(opts: { bypassCSP?: boolean; colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {}): Promise<Browser> {
  requireChromium();
  const profile = mkdtempSync(join(tmpdir(), 'hive-mind-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    bypassCSP: opts.bypassCSP ?? false,
    colorScheme: opts.colorScheme ?? 'light',
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    timeout: 60_000,
  });
  return {
    context,
    newPage: async () => context.pages()[0] ?? context.newPage(),
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A violation axe-core reports (the fields the tests print). */
export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Run axe-core (the npm package, injected into the page; needs a context launched with
 * `bypassCSP`) and return its violations of impact serious or critical.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  const src = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: src });
  const violations = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)")) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
