// Debian's Chromium, headless, driven by playwright-core: never a downloaded browser. A fresh
// profile each time; no network besides the page's own requests.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.KRINO_CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser({ colorScheme = 'light' } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'krino-ui-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
    colorScheme,
    reducedMotion: 'reduce',
  });
  const close = async () => {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

// Records what a page asks for and what goes wrong in it: requests to other hosts, script errors,
// console errors (Content-Security-Policy violations are reported there).
export function watch(page, origin) {
  const seen = { foreign: [], errors: [], requests: 0 };
  page.on('request', (request) => {
    seen.requests += 1;
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && url !== 'about:blank') seen.foreign.push(url);
  });
  page.on('pageerror', (error) => seen.errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A failed fetch is the API's answer, which the test checks itself; anything else is a bug.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) seen.errors.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 500) seen.errors.push(`${response.status()} from ${response.url()}`);
  });
  return seen;
}

// The checks every browser test ends with: no request left the server, no script error, no policy
// violation (and, with `xss`, no hostile markup ran).
export async function checkSession(page, seen, origin, { xss = true } = {}) {
  if (xss) assert.equal(await page.evaluate(() => window.__krinoXss), undefined);
  assert.deepEqual(seen.foreign, [], 'requests to other hosts');
  assert.deepEqual(seen.errors, [], 'errors in the page');
  console.log(`ok   no request left ${origin} (${seen.requests} requests), no script error or policy violation`);
}

// A failed step: says which, and keeps a screenshot of the page as it was.
export async function reportFailure(step, error, page, folder) {
  console.error(`FAIL ${step}: ${error.stack ?? error}`);
  process.exitCode = 1;
  if (!page) return;
  const where = join(folder, 'failure.png');
  await page.screenshot({ path: where, fullPage: true }).then(() => console.error(`the page at ${page.url()}: ${where}`), () => {});
}
