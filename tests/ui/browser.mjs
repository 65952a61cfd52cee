// Debian's Chromium, headless, driven by playwright-core: never a downloaded browser. A fresh
// profile each time; no network besides the page's own requests.
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
