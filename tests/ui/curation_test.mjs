// The datasets and review-queue views in Debian's headless Chromium, against a real `krino serve`
// filled by a real `krino run` (fixture.mjs) and a dataset of two versions written through the API.
// Checks the numbers shown against the JSON API, a version's pages and rows, the version diff, a
// keyboard annotation round trip (keys pressed, then the annotation read back from the API), another
// reviewer's annotation beside one's own, promotion into a new version that the datasets view then
// shows, the annotations on the run page, hostile text shown as text, dark mode, and that the page
// asks no other host for anything. Saves screenshots (docs/ui/datasets*.png, review*.png).
//
//   node curation_test.mjs --krino build/dev/bin/krino [--screenshots docs/ui]
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
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

let step = 'setting up';
const check = async (name, body) => {
  step = name;
  const started = Date.now();
  await body();
  console.log(`ok   ${name} (${Date.now() - started} ms)`);
};

const HOSTILE_NOTE = '<img src=x onerror="window.__krinoXss=3"> bob was here';
const dir = makeWorkspace();
const serve = await startServe(krino, join(dir, 'data'));
const origin = serve.url;
let key = null;  // the ADMIN key, once made: writes need it from then on
const api = async (path, init = {}, as = key) => {
  const headers = { 'Content-Type': 'application/json', ...(as ? { Authorization: `Bearer ${as}` } : {}) };
  const response = await fetch(`${origin}/api/v1${path}`, { ...init, headers });
  assert.ok(response.ok, `${init.method ?? 'GET'} ${path}: ${response.status} ${await response.clone().text()}`);
  return response.status === 204 ? null : response.json();
};

let browser = null;
let page = null;
try {
  const runId = await runExperiment(krino, experimentFile(dir, `${origin}/`), { KRINO_UI_VARIANT: 'a' });

  // Dataset "capitals": version 1 is the fixture's examples; version 2 drops one, changes one
  // expected output, adds one.
  const rows = readFileSync(join(dir, 'data.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const asItem = (row) => ({ id: row.id, inputs: { input: row.input }, expectedOutputs: { output: row.expectedOutput }, metadata: row.metadata });
  await api('/datasets', { method: 'POST', body: JSON.stringify({ name: 'capitals', description: `Capitals of the world ${HOSTILE_OUTPUT}` }) });
  await api('/datasets', { method: 'POST', body: JSON.stringify({ name: 'empty-one' }) });
  await api('/datasets/capitals/versions', { method: 'POST', body: JSON.stringify({ description: 'from the fixture', items: rows.map(asItem) }) });
  const v2 = rows.slice(1).map(asItem);
  v2[0].expectedOutputs = { output: 'Berlin, Germany' };
  v2.push({ id: 'c99', inputs: { input: 'What is the capital of Ghana?' }, expectedOutputs: { output: 'Accra' } });
  await api('/datasets/capitals/versions', { method: 'POST', body: JSON.stringify({ description: 'one dropped, one fixed, one added', items: v2 }) });
  const datasets = await api('/datasets');
  const diff = await api('/datasets/capitals/diff?from=1&to=2');

  browser = await launchBrowser();
  page = await browser.context.newPage();
  const seen = watch(page, origin);
  // An overlay covers the window, not the whole page: `fullPage: false` shows it as a person sees it.
  const shoot = async (name, { fullPage = true } = {}) => {
    if (!shots) return;
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
  };

  await check('the datasets view lists each dataset with its latest version and item count', async () => {
    await page.goto(`${origin}/`);
    await page.getByRole('link', { name: 'Datasets' }).click();
    await page.waitForURL(`${origin}/datasets`);
    const table = page.getByTestId('datasets');
    await table.locator('tbody tr').nth(1).waitFor();
    assert.equal(await table.locator('tbody tr').count(), datasets.length);
    const capitals = datasets.find((d) => d.name === 'capitals');
    const cells = await table.locator('tbody tr', { hasText: 'capitals' }).locator('td').allInnerTexts();
    assert.equal(cells[1], String(capitals.latestVersion));
    assert.equal(cells[2], String(capitals.itemCount));
    assert.equal(cells[3], capitals.description);  // markup in a description is text
    assert.equal((await table.locator('tbody tr', { hasText: 'empty-one' }).locator('td').allInnerTexts())[1], '\u2014');
    await shoot('datasets');
  });

  await check('a dataset shows its versions newest first', async () => {
    const details = await api('/datasets/capitals');
    await page.getByRole('link', { name: 'capitals' }).click();
    await page.waitForURL(`${origin}/datasets/capitals`);
    const versions = page.getByTestId('versions');
    await versions.locator('tbody tr').nth(1).waitFor();
    const shown = await versions.locator('tbody tr td:first-child').allInnerTexts();
    assert.deepEqual(shown, details.versions.map((v) => String(v.version)));
    assert.match(await versions.locator('tbody tr').first().innerText(), new RegExp(`${details.versions[0].itemCount}\\s+one dropped`));
    await shoot('datasets-versions');
  });

  await check('a version pages its items from the server and a row opens to show them, markup as text', async () => {
    await page.getByTestId('versions').getByRole('link', { name: '1', exact: true }).click();
    await page.waitForURL(`${origin}/datasets/capitals/versions/1`);
    const first = await api('/datasets/capitals/versions/1/items?page=0&size=25');
    const second = await api('/datasets/capitals/versions/1/items?page=1&size=25');
    await page.getByTestId('dataset-item-row').first().waitFor();
    assert.equal(await page.getByTestId('dataset-item-row').count(), first.content.length);
    assert.match(await page.getByTestId('version-count').innerText(), new RegExp(`^${first.totalElements} items`));
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/page=1/);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=dataset-item-row]').length === n, second.content.length);
    const ids = await page.locator('[data-testid=dataset-item-row] td:nth-child(3)').allInnerTexts();
    assert.deepEqual(ids, second.content.map((item) => item.id));
    await page.getByRole('button', { name: 'Show item hostile' }).click();
    const detail = page.getByTestId('dataset-item-detail');
    await detail.waitFor();
    const text = await detail.innerText();
    assert.ok(text.includes(HOSTILE_INPUT) && text.includes(HOSTILE_OUTPUT), text);
    assert.equal(await page.evaluate(() => window.__krinoXss), undefined);
    assert.equal(await page.locator('main img').count(), 0);
    await shoot('datasets-items');
    await page.goBack();
    await page.waitForURL(`${origin}/datasets/capitals/versions/1`);
  });

  await check('two versions compared: added, removed and changed expected outputs as the API counts them', async () => {
    await page.goto(`${origin}/datasets/capitals`);
    await page.getByLabel('From version').selectOption('1');
    await page.getByLabel('To version').selectOption('2');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.waitForURL(/\/datasets\/capitals\/diff\?from=1&to=2/);
    await page.getByTestId('diff-added').waitFor();
    for (const [id, count] of [['diff-added', diff.addedCount], ['diff-removed', diff.removedCount], ['diff-changed', diff.changedCount]])
      assert.match(await page.getByTestId(id).innerText(), new RegExp(`\\b${count}\\b`), id);
    assert.deepEqual([diff.addedCount, diff.removedCount, diff.changedCount], [1, 1, 1]);
    assert.match(await page.getByTestId('diff-changed-items').innerText(), /c01[\s\S]*Berlin[\s\S]*Berlin, Germany/);
    assert.match(await page.getByTestId('diff-added-items').innerText(), /c99[\s\S]*Ghana/);
    assert.match(await page.getByTestId('diff-removed-items').innerText(), /c00[\s\S]*France/);
    await shoot('datasets-diff');
  });

  // Two reviewers: this tab's ADMIN key, and bob's EDITOR key, who judged the second item already.
  const admin = await api('/api-keys', { method: 'POST', body: JSON.stringify({ name: 'me', role: 'ADMIN' }) });
  key = admin.key;
  const bob = await api('/api-keys', { method: 'POST', body: JSON.stringify({ name: 'bob', role: 'EDITOR' }) });
  const queue = await api(`/review-queue?runId=${runId}&size=25`);
  const entries = queue.content;
  const annotationOf = (entry) => api(`/runs/${entry.runId}/items/${entry.itemResultId}/annotation`);
  await api(`/runs/${runId}/items/${entries[1].itemResultId}/annotation`, { method: 'PUT', body: JSON.stringify({ verdict: 'UNSURE', note: HOSTILE_NOTE }) }, bob.key);
  const currentIs = (entry) => page.waitForFunction((index) => document.querySelector('#current-title')?.textContent.startsWith(`Item ${index}`), entry.index);
  const until = async (read, ok) => {
    for (let i = 0; i < 100; i += 1) {
      const value = await read().catch(() => null);
      if (value && ok(value)) return value;
      await new Promise((done) => setTimeout(done, 50));
    }
    throw new Error('the API never showed the change');
  };

  await check('the review queue shows the run\'s items, oldest first, as the API counts them; ? shows the keys', async () => {
    await page.goto(`${origin}/`);
    await page.evaluate((text) => sessionStorage.setItem('krino.apiKey', text), key);
    await page.goto(`${origin}/runs/${runId}`);
    await page.getByTestId('review-link').click();
    await page.waitForURL(`${origin}/review?runId=${runId}`);
    await page.getByTestId('queue-row').first().waitFor();
    assert.match(await page.getByTestId('queue-count').innerText(), new RegExp(`^${queue.totalElements} items to review`));
    assert.equal(await page.getByTestId('queue-row').count(), entries.length);
    assert.deepEqual(await page.locator('[data-testid=queue-row] td:nth-child(2)').allInnerTexts(), entries.map((e) => String(e.index)));
    await currentIs(entries[0]);
    await page.keyboard.press('?');
    await page.getByTestId('review-help').waitFor();
    assert.match(await page.getByTestId('review-help').innerText(), /c\s+Correct[\s\S]*j \/ \u2193\s+Next item/);
    await shoot('review-help', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.getByTestId('review-help').waitFor({ state: 'detached' });
  });

  await check('keyboard annotation round trip: c, n, i, e, j/k, each read back from the API', async () => {
    await page.locator('body').press('c');
    assert.equal((await until(() => annotationOf(entries[0]), (a) => a.verdict === 'CORRECT')).verdict, 'CORRECT');
    await currentIs(entries[1]);  // a verdict moves on
    // bob's annotation (UNSURE keeps the item in the queue) is beside mine, his note as text.
    const others = page.getByTestId('other-annotations');
    await others.waitFor();
    await others.getByText(`\u2026${bob.id.slice(-6)}`).waitFor();  // key names arrive after the ids
    assert.ok((await others.innerText()).includes(HOSTILE_NOTE));
    assert.match(await others.innerText(), new RegExp(`bob \u2026${bob.id.slice(-6)}`));
    await page.keyboard.press('n');
    await page.getByLabel('Note').fill('the gold answer is outdated');
    await page.keyboard.press('Control+Enter');
    const noted = await until(() => annotationOf(entries[1]), (a) => a.note === 'the gold answer is outdated');
    assert.equal(noted.verdict, 'UNSURE');
    await page.keyboard.press('i');
    const judged = await until(() => annotationOf(entries[1]), (a) => a.verdict === 'INCORRECT');
    assert.equal(judged.note, 'the gold answer is outdated');  // the verdict keeps the note
    await currentIs(entries[2]);
    await page.keyboard.press('e');
    await page.getByLabel(/Expected output instead/).fill('{"output": "Fixed <b>answer</b>"}');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('editor-expected').waitFor({ state: 'detached' });
    await page.keyboard.press('c');
    const corrected = await until(() => annotationOf(entries[2]), (a) => a.verdict === 'CORRECT');
    assert.deepEqual(corrected.overriddenExpectedOutput, { output: 'Fixed <b>answer</b>' });
    await currentIs(entries[3]);
    await page.keyboard.press('k');
    await currentIs(entries[2]);
    await page.keyboard.press('j');
    await currentIs(entries[3]);
    await page.keyboard.press('ArrowUp');
    await currentIs(entries[2]);
    // x selects judged items for promotion.
    await page.keyboard.press('x');
    await page.keyboard.press('k');
    await page.keyboard.press('x');
    await page.keyboard.press('k');
    await page.keyboard.press('x');
    await page.getByRole('button', { name: 'Promote 3 selected' }).waitFor();
    await currentIs(entries[0]);
    await shoot('review');
  });

  await check('promotion writes a new version that the datasets view shows', async () => {
    await page.getByLabel('Dataset', { exact: true }).selectOption('capitals');
    await page.getByLabel('Version description').fill('three reviewed items');
    await page.getByRole('button', { name: 'Promote 3 selected' }).click();
    await page.getByTestId('promoted').waitFor();
    const details = await api('/datasets/capitals');
    assert.equal(details.versions[0].version, 3);
    assert.equal(details.versions[0].description, 'three reviewed items');
    assert.match(await page.getByTestId('promoted').innerText(), new RegExp(`capitals version 3 with ${details.versions[0].itemCount} items`));
    await page.getByTestId('promoted').getByRole('link').click();
    await page.waitForURL(`${origin}/datasets/capitals/versions/3`);
    await page.getByTestId('version-count').waitFor();
    assert.match(await page.getByTestId('version-count').innerText(), new RegExp(`^${details.versions[0].itemCount} items`));
    await page.getByRole('link', { name: 'Datasets' }).first().click();
    await page.waitForURL(`${origin}/datasets`);
    await page.getByTestId('datasets').waitFor();
    assert.equal((await page.getByTestId('datasets').locator('tbody tr', { hasText: 'capitals' }).locator('td').allInnerTexts())[1], '3');
  });

  await check('the run page shows an item\'s annotations by every reviewer in its expanded row', async () => {
    await page.goto(`${origin}/runs/${runId}`);
    const row = page.getByTestId('item-row').filter({ has: page.locator('td:nth-child(2)', { hasText: new RegExp(`^${entries[1].index}$`) }) });
    await row.getByRole('button').click();
    const table = page.getByTestId('annotations');
    await table.waitFor();
    // Reviewers show as key ids until the key names arrive (a request of their own): wait for them.
    await table.getByText(`\u2026${bob.id.slice(-6)}`).waitFor();
    const text = await table.innerText();
    assert.ok(text.includes(`bob \u2026${bob.id.slice(-6)}`) && text.includes(HOSTILE_NOTE) && text.includes('the gold answer is outdated'), text);
    assert.equal(await table.locator('tbody tr').count(), 2);
    assert.equal(await page.evaluate(() => window.__krinoXss), undefined);
    await shoot('review-run-annotations');
  });

  await check('queue filters: project, experiment and run, in the URL, counted as the API counts', async () => {
    const countIs = (total) => page.waitForFunction((text) => document.querySelector('[data-testid=queue-count]')?.textContent.startsWith(text), `${total} items to review`);
    await page.goto(`${origin}/review?runId=${runId}`);
    await page.getByTestId('queue-row').first().waitFor();
    await page.waitForFunction(() => document.querySelector('#review-project')?.value === 'geography');  // the run's project
    await page.getByLabel('Project').selectOption('');
    await page.waitForURL(`${origin}/review`);
    await countIs((await api('/review-queue?size=25')).totalElements);
    await page.getByLabel('Project').selectOption('geography');
    await page.waitForURL(/projectName=geography/);
    await countIs((await api('/review-queue?projectName=geography&size=25')).totalElements);
    await page.getByLabel('Experiment').selectOption({ label: 'capitals' });
    await page.waitForURL(new RegExp(`experimentId=${entries[0].experimentId}`));
    await countIs((await api(`/review-queue?experimentId=${entries[0].experimentId}&size=25`)).totalElements);
    await page.getByLabel('Run', { exact: true }).selectOption(runId);
    await page.waitForURL(new RegExp(`runId=${runId}`));
    await countIs((await api(`/review-queue?runId=${runId}&size=25`)).totalElements);
  });

  await check('"Next page" follows nextCursor: items judged on page 1 leave the queue, yet none is skipped', async () => {
    const firstPage = await api(`/review-queue?runId=${runId}&size=25`);
    assert.ok(firstPage.nextCursor && firstPage.totalElements > 25, `the run needs more than one page: ${firstPage.totalElements}`);
    const shownIndexes = () => page.locator('[data-testid=queue-row] td:nth-child(2)').allInnerTexts();
    await page.goto(`${origin}/review?runId=${runId}`);
    await page.getByTestId('queue-row').nth(24).waitFor();
    assert.deepEqual(await shownIndexes(), firstPage.content.map((e) => String(e.index)));
    // Two verdicts on page 1: those items leave the queue, which moves every later item up by two.
    await currentIs(firstPage.content[0]);
    await page.locator('body').press('c');
    await currentIs(firstPage.content[1]);
    await page.keyboard.press('i');
    await until(() => annotationOf(firstPage.content[1]), (a) => a.verdict === 'INCORRECT');
    await until(() => annotationOf(firstPage.content[0]), (a) => a.verdict === 'CORRECT');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.waitForURL(new RegExp(`after=${encodeURIComponent(firstPage.nextCursor).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const secondPage = await api(`/review-queue?runId=${runId}&size=25&after=${encodeURIComponent(firstPage.nextCursor)}`);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=queue-row]').length === n, secondPage.content.length);
    assert.deepEqual(await shownIndexes(), secondPage.content.map((e) => String(e.index)));
    // The first item shown is the one right after the last one page 1 showed, in queue order.
    const queueNow = await api(`/review-queue?runId=${runId}&size=100`);
    const order = queueNow.content.map((e) => e.itemResultId);
    const lastShown = firstPage.content[firstPage.content.length - 1];
    assert.equal(order[order.indexOf(lastShown.itemResultId) + 1], secondPage.content[0].itemResultId);
    // Page 1 less the judged two, then page 2: every item still in the queue, none left out.
    const seenIds = [...firstPage.content.slice(2), ...secondPage.content].map((e) => e.itemResultId);
    assert.deepEqual(seenIds, order.slice(0, seenIds.length));
    if (!secondPage.nextCursor) assert.equal(seenIds.length, queueNow.totalElements);
    await page.getByRole('button', { name: 'First page' }).click();
    await page.waitForURL(`${origin}/review?runId=${runId}`);
    await page.waitForFunction((text) => document.querySelector('[data-testid=queue-row] td:nth-child(2)')?.textContent === text, String(queueNow.content[0].index));
  });

  await check('dark mode: the review queue follows the system', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${origin}/review?runId=${runId}`);
    await page.getByTestId('queue-row').first().waitFor();
    await page.getByTestId('review-current').waitFor();
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(18, 21, 27)');
    await shoot('review-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  step = 'the whole session';
  await checkSession(page, seen, origin);
} catch (error) {
  await reportFailure(step, error, page, shots ?? dir);
} finally {
  await browser?.close();
  serve.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
