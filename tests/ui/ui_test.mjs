// krino serve's web UI in Debian's headless Chromium, against a real server filled by two real
// `krino run`s (fixture.mjs). Opens every view, follows dashboard -> experiment -> run -> diff,
// filters, expands items, checks the numbers shown against the JSON API, checks that hostile text
// stays text, that the page asks no other host for anything and that no script error or policy
// violation happens; saves a screenshot of each view (docs/ui/).
//
//   node ui_test.mjs --krino build/dev/bin/krino [--screenshots docs/ui]
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkSession, launchBrowser, reportFailure, watch } from './browser.mjs';
import { HOSTILE_INPUT, HOSTILE_OUTPUT, experimentFile, makeWorkspace, runExperiment, startServe } from './fixture.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const krinoOption = option('--krino', process.env.KRINO_BINARY);
const krino = krinoOption && resolve(krinoOption);
const shots = option('--screenshots', null);
assert.ok(krinoOption, 'give the krino binary with --krino');

const percent = (value) => `${(value * 100).toFixed(1)}%`;
let step = 'setting up';
const check = async (name, body) => {
  step = name;
  const started = Date.now();
  await body();
  console.log(`ok   ${name} (${Date.now() - started} ms)`);
};

const dir = makeWorkspace();
const serve = await startServe(krino, join(dir, 'data'), ['--alert-poll-ms', '50', '--alert-retry-ms', '200', '--alert-attempts', '2']);
const origin = serve.url;
const api = async (path, init = {}) => {
  const response = await fetch(`${origin}/api/v1${path}`, { ...init, headers: { 'Content-Type': 'application/json', ...(init.headers ?? {}) } });
  assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
  return response.status === 204 ? null : response.json();
};

let browser = null;
let page = null;
try {
  const file = experimentFile(dir, `${origin}/`);
  const baselineRun = await runExperiment(krino, file, { KRINO_UI_VARIANT: 'a' });
  // A webhook that cannot be reached: the regressed second run leaves failed deliveries in its log.
  const [project] = await api('/projects');
  await api(`/projects/${project.id}/alert-webhooks`, { method: 'POST', body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', secret: 's3cret' }) });
  const candidateRun = await runExperiment(krino, file, { KRINO_UI_VARIANT: 'b' });
  const run = await api(`/runs/${candidateRun}?page=0&size=1`);
  const experimentRuns = await api(`/experiments/${run.experimentId}/runs`);
  const diff = await api(`/experiments/${run.experimentId}/runs/${candidateRun}/diff?baselineRunId=${baselineRun}`);

  browser = await launchBrowser();
  page = await browser.context.newPage();
  const seen = watch(page, origin);
  const shoot = async (name) => {
    if (!shots) return;
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  };

  await check('the dashboard lists the project with its experiments and the newest runs', async () => {
    await page.goto(`${origin}/`);
    const row = page.getByTestId('projects').locator('tbody tr', { hasText: 'geography' });
    await row.waitFor();
    assert.match(await row.innerText(), /geography\s+1\b/);
    await page.getByTestId('activity').locator('tbody tr').first().waitFor();
    assert.match(await page.getByTestId('activity').innerText(), new RegExp(percent(run.passRate).replace('.', '\\.')));
    await page.getByText(/failing gates|gate verdicts/i).first().waitFor();
    await shoot('dashboard');
  });

  await check('the project shows its experiment and its webhook, secret as set/unset, with the delivery log', async () => {
    await page.getByRole('link', { name: 'geography' }).first().click();
    await page.waitForURL(`${origin}/projects/geography`);
    await page.getByTestId('experiments').locator('tbody tr', { hasText: 'capitals' }).waitFor();
    assert.match(await page.getByTestId('experiments').innerText(), new RegExp(percent(run.passRate).replace('.', '\\.')));
    await page.getByTestId('secret-state').waitFor();
    assert.equal(await page.getByTestId('secret-state').innerText(), 'secret set');
    assert.ok(!(await page.content()).includes('s3cret'), 'the secret never reaches the page');
    await page.getByRole('button', { name: 'Show delivery log' }).click();
    await page.locator('.webhook table tbody tr').first().waitFor();
    await shoot('project');
    await page.getByRole('button', { name: 'Remove secret' }).click();
    await page.getByText('secret not set').waitFor();
    const [webhook] = await api(`/projects/${project.id}/alert-webhooks`);
    assert.equal(webhook.hasSecret, false);
    await page.goBack();
    await page.waitForURL(`${origin}/`);
  });

  await check('dashboard -> experiment: pass rates, the trend chart and every run', async () => {
    await page.getByTestId('activity').getByRole('link', { name: 'capitals' }).click();
    await page.waitForURL(`${origin}/experiments/${run.experimentId}`);
    await page.getByTestId('runs').locator('tbody tr').nth(1).waitFor();
    assert.equal(await page.getByTestId('runs').locator('tbody tr').count(), experimentRuns.length);
    assert.match(await page.getByTestId('latest-pass-rate').innerText(), new RegExp(percent(experimentRuns[0].passRate).replace('.', '\\.')));
    const best = Math.max(...experimentRuns.map((r) => r.passRate));
    assert.match(await page.getByTestId('best-pass-rate').innerText(), new RegExp(percent(best).replace('.', '\\.')));
    await page.locator('.trend-plot canvas').waitFor();
    await shoot('experiment');
  });

  await check('experiment -> run: totals against the API, evaluators, items', async () => {
    await page.getByTestId('runs').locator('tbody tr').first().getByRole('link').first().click();
    await page.waitForURL(`${origin}/runs/${candidateRun}`);
    await page.getByTestId('card-pass-rate').waitFor();
    assert.match(await page.getByTestId('card-pass-rate').innerText(), new RegExp(`${percent(run.passRate).replace('.', '\\.')}[\\s\\S]*${run.passedItems} of ${run.totalItems} items passed`));
    // Spec §2.3: the cost to 4 decimals, and "N/M items priced" as one item has tokens but no cost.
    assert.equal(run.pricedItemCount, run.tokenizedItemCount - 1);
    assert.match(await page.getByTestId('card-cost').innerText(),
      new RegExp(`^TOTAL COST\\s+\\$${run.costUsd.toFixed(4).replace('.', '\\.')}\\s+${run.pricedItemCount}/${run.tokenizedItemCount} items priced$`, 'i'));
    assert.match(await page.getByTestId('card-tokens').innerText(), new RegExp(`${(run.tokensIn + run.tokensOut).toLocaleString('en-US')}[\\s\\S]*${run.tokensIn.toLocaleString('en-US')} in, ${run.tokensOut.toLocaleString('en-US')} out`));
    // The items' average latency, from the sum and count the run keeps (latencyMsMean).
    assert.ok(run.latencyMsMean > 0);
    const meanLatency = run.latencyMsMean < 1000 ? `${run.latencyMsMean.toFixed(run.latencyMsMean < 10 ? 1 : 0)} ms` : `${(run.latencyMsMean / 1000).toFixed(1)} s`;
    assert.match(await page.getByTestId('card-latency').innerText(), new RegExp(`^AVG LATENCY\\s+${meanLatency.replace('.', '\\.')}\\s`, 'i'));
    await page.getByTestId('items').locator('tbody tr').first().waitFor();
    assert.equal(await page.getByTestId('item-row').count(), Math.min(50, run.totalItems));
    await shoot('run');
  });

  await check('run filters: status, evaluator and text, in the URL; the back button undoes them', async () => {
    await page.getByLabel('Status').selectOption('FAILED');
    await page.waitForURL(/status=FAILED/);
    // An item with an error failed too (the API's FAILED); its badge says ERROR.
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=item-row] .badge')].every((b) => b.textContent === 'FAILED' || b.textContent === 'ERROR'));
    const failedShown = await page.getByTestId('item-row').count();
    const failed = await api(`/runs/${candidateRun}/items?status=FAILED&size=50`);
    assert.equal(failedShown, failed.content.length);
    await page.getByLabel('Evaluator', { exact: true }).selectOption('loose');
    await page.getByLabel('Evaluator verdict').selectOption('FAILED');
    await page.waitForURL(/evaluatorStatus=FAILED/);
    const looseFailed = await api(`/runs/${candidateRun}/items?status=FAILED&evaluator=loose&evaluatorStatus=FAILED&size=50`);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=item-row]').length === n, looseFailed.content.length);
    await page.getByLabel('Search').fill('Germany');
    await page.waitForURL(/q=Germany/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=item-row]').length === 1);
    await page.goBack();
    await page.waitForURL((url) => !url.search.includes('evaluatorStatus'));
    assert.equal(await page.getByLabel('Evaluator verdict').inputValue(), '');
    await page.goBack();  // the evaluator
    await page.waitForURL((url) => !url.search.includes('evaluator'));
    await page.goBack();  // the status
    await page.waitForURL(`${origin}/runs/${candidateRun}`);
    assert.equal(await page.getByLabel('Status').inputValue(), 'ALL');
  });

  await check('an expanded item shows inputs, outputs, tool calls, reasons and metadata', async () => {
    await page.getByTestId('item-row').filter({ hasText: 'c00' }).getByRole('button').click();
    const detail = page.getByTestId('item-detail').first();
    await detail.waitFor();
    const text = await detail.innerText();
    for (const part of ['INPUTS', 'EXPECTED OUTPUTS', 'ACTUAL OUTPUTS', 'TOOL CALLS', 'lookup_capital', 'Evaluator results', 'the actual output equals', 'METADATA', 'France']) {
      assert.ok(text.toUpperCase().includes(part.toUpperCase()), `${part} in ${text}`);
    }
    await shoot('run-item');
  });

  await check('hostile markup in an item is shown as text and runs nothing', async () => {
    await page.goto(`${origin}/runs/${candidateRun}?q=onerror`);
    const row = page.getByTestId('item-row').filter({ hasText: 'hostile' });
    await row.getByRole('button').click();
    const detail = page.getByTestId('item-detail').first();
    await detail.waitFor();
    const text = await detail.innerText();
    assert.ok(text.includes(HOSTILE_OUTPUT), text);
    assert.ok(text.includes(HOSTILE_INPUT.slice(0, 20)), text);
    assert.equal(await page.evaluate(() => window.__krinoXss), undefined);
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('main script').count(), 0);
  });

  await check('run -> diff: movement, counts, verdict and evaluator deltas against the API', async () => {
    await page.goto(`${origin}/runs/${candidateRun}`);
    await page.getByTestId('diff-link').click();
    await page.waitForURL(/\/diff\?/);
    await page.getByTestId('diff-pass-rate').waitFor();
    const summary = diff.summary;
    assert.match(await page.getByTestId('diff-pass-rate').innerText(), new RegExp(`${percent(summary.baselinePassRate)} \u2192 ${percent(summary.candidatePassRate)}`.replace(/\./g, '\\.')));
    assert.match(await page.getByTestId('diff-regressed').innerText(), new RegExp(`\\b${summary.regressedCount}\\b`));
    assert.match(await page.getByTestId('diff-improved').innerText(), new RegExp(`\\b${summary.improvedCount}\\b`));
    const verdict = await page.getByTestId('verdict').innerText();
    assert.ok(verdict.startsWith(summary.significant ? 'Significant' : 'Not significant'), verdict);
    assert.equal(await page.getByTestId('diff-evaluators').locator('tbody tr').count(), summary.evaluators.length);
    await page.getByTestId('cases').locator('tbody tr').first().waitFor();
    await shoot('diff');
    await page.getByLabel('Change').selectOption('REGRESSED');
    await page.waitForURL(/status=REGRESSED/);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=cases] tbody tr').length === n, summary.regressedCount);
    assert.ok((await page.getByTestId('cases').locator('.badge').allInnerTexts()).every((t) => t === 'REGRESSED' || t === 'severe'));
    await page.goBack();
    await page.waitForURL((url) => !url.search.includes('REGRESSED'));
  });

  await check('API keys: a new key is shown once and listed', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(`${origin}/keys`);
    await page.getByText(/No keys/).waitFor();
    await page.getByLabel('Name').fill('ci');
    await page.getByLabel('Role').selectOption('ADMIN');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByTestId('new-key').innerText();
    assert.match(key, /^krino_[A-Za-z0-9_-]{43}$/);
    await page.getByTestId('keys').locator('tbody tr', { hasText: 'ci' }).waitFor();
    // Every cell of the row is a table cell, as tall as the row (a flex cell broke the row's border).
    const heights = await page.getByTestId('keys').locator('tbody tr', { hasText: 'ci' }).locator('td')
      .evaluateAll((cells) => cells.map((td) => `${getComputedStyle(td).display} ${td.getBoundingClientRect().height}`));
    assert.equal(new Set(heights).size, 1, heights.join(', '));
    assert.match(heights[0], /^table-cell /);
    await shoot('keys');
    // Keys are in use now: the webhooks need one. A tab without a key is asked for one.
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${origin}/projects/geography`);
    await page.getByRole('dialog').waitFor();
    await page.getByLabel('Key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Use key' }).click();
    await page.getByTestId('secret-state').waitFor();
  });

  await check('dark mode follows the system and the switch', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${origin}/runs/${candidateRun}`);
    await page.getByTestId('items').waitFor();
    const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    assert.equal(background, 'rgb(18, 21, 27)');
    await shoot('run-dark');
    await page.getByRole('button', { name: /^Theme/ }).click();  // auto -> light
    // The theme is applied by an effect after the click's render: waited for, not read at once.
    await page.waitForFunction(() => getComputedStyle(document.documentElement).backgroundColor === 'rgb(255, 255, 255)',
      null, { timeout: 5000 });
  });

  await check('keyboard: the skip link comes first, a row opens with Enter, the key prompt closes with Escape', async () => {
    await page.goto(`${origin}/runs/${candidateRun}`);
    await page.getByTestId('item-row').first().waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to content');
    const expand = page.getByTestId('item-row').first().getByRole('button');
    await expand.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('item-detail').waitFor();
    assert.equal(await expand.getAttribute('aria-expanded'), 'true');
    await page.getByRole('button', { name: /^(API key|Key set)$/ }).click();
    await page.getByRole('dialog').waitFor();
    // Focus moves to the field in an effect after the dialog's render: waited for, not read at once.
    await page.waitForFunction(() => document.activeElement?.name === 'apiKey', null, { timeout: 5000 });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  await check('an unknown view says so', async () => {
    await page.goto(`${origin}/no/such/view`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
  });

  step = 'the whole session';
  await checkSession(page, seen, origin, { xss: false });
} catch (error) {
  await reportFailure(step, error, page, shots ?? dir);
} finally {
  await browser?.close();
  serve.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
