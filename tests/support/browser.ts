import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far (tests assert none). */
  errors: string[];
  /** '<method> <path> <status>' of every /api response with an error status, for failure messages. */
  apiFailures: string[];
  close(): Promise<void>;
}

/** Debian's chromium driven by playwright-core (browsers cannot be downloaded here). */
export async function launchBrowser(opts: { width?: number; height?: number } = {}): Promise<TestBrowser> {
  const dir = mkdtempSync(join(tmpdir(), 'hht-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const apiFailures: string[] = [];
  const watch = (p: Page): void => {
    p.on('response', (r) => {
      const url = new URL(r.url());
      if (r.status() >= 400 && url.pathname.startsWith('/api/')) apiFailures.push(`${r.request().method()} ${url.pathname} ${r.status()}`);
    });
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    p.on('pageerror', (e) => errors.push(e.message));
  };
  watch(page);
  context.on('page', watch);
  return {
    context,
    page,
    errors,
    apiFailures,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
