// The run page of krino serve's web UI with a run of 1,000,000 items (not in CI): fills a fresh
// `krino serve` through its API (batches of 1000 items of about 600 bytes), then measures in Debian's
// headless Chromium the run page's first paint and first items, and each filter change (from the
// change to the new rows on screen). Uses tests/ui's playwright-core (npm ci in tests/ui first).
//
//   node tests/bench/ui_million_bench.mjs --krino build/release/bin/krino [--items 1000000] [--data DIR] [--wait-index]
// --data keeps the server's data in DIR: a second invocation with the same DIR measures again
// without filling (filling a million items takes minutes). --wait-index measures once the run's
// text search index is ready (the server builds it after the run ends), printing how long that took
// from the moment it was seen missing; without it, searches are measured with whatever the index's
// state is (printed).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchBrowser, watch } from '../ui/browser.mjs';
import { startServe } from '../ui/fixture.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const krino = resolve(option('--krino', 'build/release/bin/krino'));
const total = Number(option('--items', 1000000));
const BATCH = 1000;

function item(i) {
  const failed = i % 3 === 1;
  const error = i % 97 === 5;
  const word = i % 10007 === 42 ? 'needle' : `word${i % 1000}`;
  return {
    success: !failed && !error,
    datasetItemId: `q${i}`,
    inputs: { input: `Question ${i}: what is ${word} in the context of item ${i}?` },
    expectedOutputs: { output: `answer ${i % 50}` },
    actualOutputs: { output: failed ? `wrong ${i % 7}` : `answer ${i % 50}` },
    metadata: { shard: i % 8 },
    evalResults: [
      { name: 'exact_match', score: failed ? 0 : 1, threshold: 1, success: !failed, reason: failed ? 'differs' : 'equal' },
      { name: 'similarity', score: ((i * 7919) % 1000) / 1000, threshold: 0.5, success: ((i * 7919) % 1000) >= 500 },
    ],
    tokensIn: 100 + (i % 50), tokensOut: 10 + (i % 9), costUsd: 0.00002, latencyMs: 100 + (i % 400),
    ...(error ? { error: { code: 'TIMEOUT', message: 'the task timed out', stage: 'task' } } : {}),
  };
}

const kept = option('--data', null);
const dir = kept ?? mkdtempSync(join(tmpdir(), 'krino-ui-bench-'));
const filled = existsSync(join(dir, 'data', 'krino.db'));
const serve = await startServe(krino, join(dir, 'data'));
const origin = serve.url;
const post = async (path, body, method = 'POST') => {
  const response = await fetch(`${origin}/api/v1${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
};
let browser = null;
let page = null;
try {
  let runId;
  if (filled) {
    const [experiment] = await (await fetch(`${origin}/api/v1/projects/bench/experiments`)).json();
    runId = experiment.latestRun.runId;
    console.log(`measuring the run kept in ${dir}`);
  } else {
    const fillStarted = Date.now();
    ({ runId } = await post('/projects/bench/runs', { experimentName: 'million' }));
    for (let start = 0; start < total; start += BATCH) {
      const items = [];
      for (let i = start; i < Math.min(total, start + BATCH); i += 1) items.push(item(i));
      await post(`/runs/${runId}/items`, { items });
      if ((start / BATCH) % 100 === 99) console.error(`filled ${start + BATCH} items`);
    }
    await post(`/runs/${runId}`, { status: 'SUCCESS' }, 'PATCH');
    console.log(`filled ${total} items in ${((Date.now() - fillStarted) / 1000).toFixed(0)} s`);
  }
  const textIndex = async () => (await (await fetch(`${origin}/api/v1/runs/${runId}?page=0&size=1`)).json()).textIndex;
  if (args.includes('--wait-index')) {
    const waitStarted = Date.now();
    let state = await textIndex();
    if (state !== 'READY') {
      while (state !== 'READY') {
        await new Promise((done) => setTimeout(done, 500));
        state = await textIndex();
      }
      console.log(`text index ready after ${((Date.now() - waitStarted) / 1000).toFixed(1)} s of waiting`);
    }
  }
  console.log(`text index: ${await textIndex()}`);
  // What the page asks for, timed alone (after the run ended, so distributions are kept).
  for (const path of [`/runs/${runId}?page=0&size=1`, `/runs/${runId}/evaluators`, `/runs/${runId}/items?size=50`,
    `/runs/${runId}/items?size=50&q=needle`, `/runs/${runId}/items?size=50&q=word7`]) {
    const started = Date.now();
    const response = await fetch(`${origin}/api/v1${path}`);
    await response.text();
    console.log(`${String(Date.now() - started).padStart(6)} ms  GET ${path.replace(runId, '{id}')} (${response.status})`);
  }

  browser = await launchBrowser();
  page = await browser.context.newPage();
  const seen = watch(page, origin);
  // The rows of the current URL are on screen: the items element says which query it shows and
  // whether its page has arrived (the URL changes before the view renders it).
  const rowsShown = (expected, first = false) => page.waitForFunction(([status, firstRows]) => {
    const marker = document.querySelector('[data-testid=match-count]');
    if (!marker || marker.dataset[firstRows ? 'shown' : 'ready'] !== 'true' || marker.dataset.query !== new URLSearchParams(window.location.search).toString()) return false;
    const rows = [...document.querySelectorAll('[data-testid=item-row]')];
    // An item with an error failed too: the failed filter shows both badges.
    return !status || rows.every((row) => status.includes(row.querySelector('.badge')?.textContent));
  }, [expected, first], { timeout: 60000, polling: 'raf' });
  const figures = [];
  // From the action to the rows on screen; for a search, also to its first matches (shown while
  // the server's windows are still being read).
  const measure = async (name, action, expected, firstToo = false) => {
    const started = Date.now();
    await action();
    if (firstToo) {
      await rowsShown(expected, true);
      figures.push([`${name}: first matches`, Date.now() - started]);
    }
    await rowsShown(expected);
    figures.push([name, Date.now() - started]);
  };
  // A cold open (a fresh profile: every file fetched), then a second one (files revalidated, 304).
  await measure('open the run page, cold (navigation to first 50 items on screen)', () => page.goto(`${origin}/runs/${runId}`), null);
  figures.push(['  of which first contentful paint', Math.round(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime))]);
  await measure('open the run page again', () => page.goto(`${origin}/runs/${runId}`), null);
  figures.push(['  of which first contentful paint', Math.round(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime))]);
  await measure('status = failed', () => page.getByLabel('Status').selectOption('FAILED'), ['FAILED', 'ERROR']);
  await measure('status = error', () => page.getByLabel('Status').selectOption('ERROR'), ['ERROR']);
  await measure('status = passed', () => page.getByLabel('Status').selectOption('PASSED'), ['PASSED']);
  await measure('status = all', () => page.getByLabel('Status').selectOption('ALL'), null);
  await measure('evaluator similarity', () => page.getByLabel('Evaluator', { exact: true }).selectOption('similarity'), null);
  await measure('evaluator verdict failed', () => page.getByLabel('Evaluator verdict').selectOption('FAILED'), null);
  await measure('evaluator any', () => page.getByLabel('Evaluator', { exact: true }).selectOption(''), null);
  // The search box waits for a 250 ms pause in typing before it asks: included in these figures.
  const search = async (text) => {
    await page.getByLabel('Search').fill(text);
    await page.waitForURL((url) => url.searchParams.get('q') === text);
  };
  await measure('search "word7" (common)', () => search('word7'), null, true);
  await measure('search "needle" (1 in 10,007)', () => search('needle'), null, true);
  await page.getByLabel('Search').fill('');
  await page.waitForURL((url) => !url.search.includes('q='));
  await rowsShown(null);
  if (await page.getByRole('button', { name: 'Next' }).isEnabled()) await measure('next page', () => page.getByRole('button', { name: 'Next' }).click(), null);
  await measure('reload with filters in the URL', () => page.goto(`${origin}/runs/${runId}?status=FAILED&evaluator=similarity&evaluatorStatus=PASSED`), null);
  console.log(`run of ${total.toLocaleString('en-US')} items, ${krino}`);
  for (const [name, ms] of figures) console.log(`${String(ms).padStart(6)} ms  ${name}`);
  if (seen.errors.length) console.log('errors:', seen.errors);
} catch (error) {
  console.error(error);
  await page?.screenshot({ path: join(dir, 'failure.png'), fullPage: true }).catch(() => {});
  process.exitCode = 1;
} finally {
  await browser?.close();
  serve.kill('SIGTERM');
  if (!kept) rmSync(dir, { recursive: true, force: true });
}
