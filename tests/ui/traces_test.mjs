// The traces, LLM connections and run agreement views in Debian's headless Chromium, against a real
// `krino serve` (with KRINO_ENCRYPTION_KEY, for inline keys) filled with the OTLP/JSON fixtures of
// tests/fixtures/traces posted to /v1/traces, 55 small generated traces (two list pages), a trace of
// hostile markup, a trace scored online by a TRACE and a SPAN trace eval rule whose judge is the fake
// LLM server (krino-fake-llm: one score, one failing call), and a real `krino run` (fixture.mjs)
// annotated by two reviewers through the API.
// Checks the numbers shown against the JSON API, paging and filters in the URL and the back button,
// the span tree from the keyboard, that markup in span names, attributes and inputs stays text, that
// no key is ever on the page, and that the page asks no other host for anything. Saves screenshots
// (docs/ui/traces*.png, trace*.png, llm-connections.png, run-agreement.png).
//
//   node traces_test.mjs --krino build/dev/bin/krino --fake-llm build/dev/bin/krino-fake-llm [--screenshots docs/ui]
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
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
const fakeLlmOption = option('--fake-llm', process.env.KRINO_FAKE_LLM);
assert.ok(fakeLlmOption, 'give the fake LLM server with --fake-llm');
const source = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let step = 'setting up';
const check = async (name, body) => {
  step = name;
  const started = Date.now();
  await body();
  console.log(`ok   ${name} (${Date.now() - started} ms)`);
};

const HOSTILE_NAME = '<img src=x onerror="window.__krinoXss=4"> lookup';
const HOSTILE_KEY = '<b onmouseover="window.__krinoXss=5">key</b>';
const INLINE_KEY = `sk-test-${randomBytes(12).toString('hex')}`;  // must never reach the page
// The judge the online evaluation calls: krino-fake-llm with a script. The model call for the span
// "llm check" fails for good (a 400 is not retried); the one for "llm draft" scores low with markup in
// its reason; every other call (the whole trace's) passes.
const JUDGE_KEY = `sk-fake-${randomBytes(8).toString('hex')}`;
const dir = makeWorkspace();
writeFileSync(join(dir, 'judge.json'), JSON.stringify({
  rules: [
    { match: { contains: 'check the draft' }, reply: { fault: { kind: 'status', status: 400, message: 'the judge refused <b>this</b>' } } },
    { match: { contains: 'write a draft' }, reply: { content: JSON.stringify({ score: 0.25, reason: HOSTILE_OUTPUT }) } },
  ],
  default: { content: JSON.stringify({ score: 0.875, reason: 'It answered.' }) },
}));
const fakeLlm = await new Promise((done, fail) => {
  const child = spawn(resolve(fakeLlmOption), ['--port', '0', '--script', join(dir, 'judge.json'), '--require-key', JUDGE_KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.on('data', (chunk) => {
    text += chunk;
    const found = /listening on (\S+)/.exec(text);
    if (found && !child.url) { child.url = `http://${found[1]}`; done(child); }
  });
  child.on('exit', (code) => fail(new Error(`krino-fake-llm exited with ${code}: ${text}`)));
});
const serve = await startServe(krino, join(dir, 'data'), ['--online-eval-delay-ms', '200', '--job-poll-ms', '50'],
  { KRINO_ENCRYPTION_KEY: randomBytes(32).toString('base64'), KRINO_UI_JUDGE_KEY: JUDGE_KEY });
const origin = serve.url;
let key = null;  // the ADMIN key, once made
const api = async (path, init = {}, as = key) => {
  const headers = { 'Content-Type': 'application/json', ...(as ? { Authorization: `Bearer ${as}` } : {}) };
  const response = await fetch(`${origin}/api/v1${path}`, { ...init, headers });
  assert.ok(response.ok, `${init.method ?? 'GET'} ${path}: ${response.status} ${await response.clone().text()}`);
  return response.status === 204 ? null : response.json();
};
const postOtlp = async (body) => {
  const response = await fetch(`${origin}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const answer = await response.json();
  assert.ok(response.ok && answer.rejectedSpans === 0, JSON.stringify(answer));
};

// OTLP/JSON pieces for the generated traces.
const attr = (key, value) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
const hex = (n, width) => n.toString(16).padStart(width, '0');
function exportOf(project, spans) {
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [attr('krino.project', project)] }, scopeSpans: [{ scope: { name: 'ui-test' }, spans }] }] });
}

let browser = null;
let page = null;
try {
  for (const file of ['weather_agent.otlp.json', 'events_and_tool_errors.otlp.json', 'derived_fields.otlp.json'])
    await postOtlp(readFileSync(join(source, 'tests/fixtures/traces/otlp-genai', file), 'utf8'));
  await postOtlp(readFileSync(join(source, 'tests/fixtures/shared-data/traces/otlp_json_captured/opentelemetry-proto_examples_trace.json'), 'utf8'));
  // 55 one-span traces of project "batch", every fifth an error, all older than the fixtures.
  const start = 1717000000000000000n;
  await postOtlp(exportOf('batch', Array.from({ length: 55 }, (_, i) => ({
    traceId: hex(0x1000 + i, 32), spanId: hex(0x2000 + i, 16), name: `batch job ${i}`, kind: 'SPAN_KIND_SERVER',
    startTimeUnixNano: String(start + BigInt(i) * 1000000000n), endTimeUnixNano: String(start + BigInt(i) * 1000000000n + 5000000n),
    status: { code: i % 5 === 0 ? 'STATUS_CODE_ERROR' : 'STATUS_CODE_OK' }, attributes: [attr('input.value', `question ${i}`)],
  }))));
  // The hostile trace: markup in a span name, an attribute key and values, an event and the input.
  const hostileTrace = hex(0xbad, 32);
  const hostileStart = 1718300000000000000n;
  await postOtlp(exportOf('hostile', [
    { traceId: hostileTrace, spanId: hex(1, 16), name: 'agent <script>window.__krinoXss=6</script>', kind: 'SPAN_KIND_INTERNAL',
      startTimeUnixNano: String(hostileStart), endTimeUnixNano: String(hostileStart + 900000000n),
      attributes: [attr('input.value', HOSTILE_INPUT), attr('output.value', HOSTILE_OUTPUT)] },
    { traceId: hostileTrace, spanId: hex(2, 16), parentSpanId: hex(1, 16), name: HOSTILE_NAME, kind: 'SPAN_KIND_CLIENT',
      startTimeUnixNano: String(hostileStart + 100000000n), endTimeUnixNano: String(hostileStart + 600000000n),
      status: { code: 'STATUS_CODE_ERROR', message: '<img src=x onerror="window.__krinoXss=7">' },
      attributes: [attr(HOSTILE_KEY, HOSTILE_OUTPUT), attr('retries', 2)],
      events: [{ name: '<i>exception</i>', timeUnixNano: String(hostileStart + 500000000n), attributes: [attr('exception.message', HOSTILE_INPUT)] }] },
  ]));
  // Online evaluation: a connection to the fake judge, a TRACE rule and a SPAN rule on project
  // "online" only (the other traces stay unscored), then its trace: a root and two model calls.
  const judgeConnection = await api('/llm-connections', { method: 'POST', body: JSON.stringify({ name: 'fake judge', baseUrl: `${fakeLlm.url}/v1`, model: 'judge-mini', credentialRef: 'KRINO_UI_JUDGE_KEY' }) });
  const judge = { connectionId: judgeConnection.id, evaluatorName: 'helpful', criteria: 'Is the answer helpful?' };
  const onlineRules = [
    await api('/trace-eval-rules', { method: 'POST', body: JSON.stringify({ name: 'answers', project: 'online', target: 'TRACE', ...judge }) }),
    await api('/trace-eval-rules', { method: 'POST', body: JSON.stringify({ name: 'model calls', project: 'online', spanName: 'llm *', target: 'SPAN', ...judge, evaluatorName: 'call_judge' }) }),
  ];
  const onlineTrace = hex(0x0e1, 32);
  const onlineStart = 1718100000000000000n;
  const onlineSpan = (id, parent, name, input, output, from, to) => ({
    traceId: onlineTrace, spanId: hex(id, 16), ...(parent ? { parentSpanId: hex(parent, 16) } : {}), name, kind: parent ? 'SPAN_KIND_CLIENT' : 'SPAN_KIND_SERVER',
    startTimeUnixNano: String(onlineStart + from), endTimeUnixNano: String(onlineStart + to), attributes: [attr('input.value', input), attr('output.value', output)],
  });
  await postOtlp(exportOf('online', [
    onlineSpan(0x10, 0, 'answer refund question', 'What is the refund window?', '30 days from delivery.', 0n, 900000000n),
    onlineSpan(0x11, 0x10, 'llm draft', 'Please write a draft answer.', 'Refunds: 30 days.', 100000000n, 400000000n),
    onlineSpan(0x12, 0x10, 'llm check', 'Please check the draft answer.', 'The draft is right.', 500000000n, 800000000n),
  ]));
  const firstPage = await api('/traces?limit=50');
  const secondPage = await api(`/traces?limit=50&cursor=${encodeURIComponent(firstPage.nextCursor)}`);

  browser = await launchBrowser();
  page = await browser.context.newPage();
  const seen = watch(page, origin);
  const shoot = async (name, { fullPage = true } = {}) => {
    if (!shots) return;
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
  };
  const rowsAre = (count) => page.waitForFunction((n) => document.querySelectorAll('[data-testid=trace-row]').length === n, count);
  const shownIds = async () => (await page.locator('[data-testid=trace-row] a').evaluateAll((links) => links.map((a) => a.getAttribute('href').split('/').pop())));

  await check('the traces list: newest first, 50 a page, Next follows the server\'s cursor, Previous comes back', async () => {
    await page.goto(`${origin}/`);
    await page.getByRole('link', { name: 'Traces' }).click();
    await page.waitForURL(`${origin}/traces`);
    await rowsAre(firstPage.traces.length);
    assert.equal(firstPage.traces.length, 50);
    assert.deepEqual(await shownIds(), firstPage.traces.map((t) => t.traceId));
    const weather = firstPage.traces.find((t) => t.project === 'weather-bot');
    const cells = await page.getByTestId('trace-row').filter({ hasText: weather.rootName }).locator('td').allInnerTexts();
    assert.deepEqual(cells.slice(0, 6), [weather.rootName, 'weather-bot', '2024-06-10 06:13:20.000 UTC', '2.5 s', String(weather.spanCount), String(weather.errorCount)]);
    await shoot('traces', { fullPage: false });
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/cursor=/);
    await rowsAre(secondPage.traces.length);
    assert.deepEqual(await shownIds(), secondPage.traces.map((t) => t.traceId));
    await page.getByRole('button', { name: 'Previous' }).click();
    await rowsAre(50);
    assert.deepEqual(await shownIds(), firstPage.traces.map((t) => t.traceId));
  });

  await check('filters in the URL: errors, project (typed, Enter), start time; the back button undoes them', async () => {
    await page.goto(`${origin}/traces`);
    await rowsAre(50);
    await page.getByLabel('With errors only').check();
    await page.waitForURL(/errors=true/);
    const withErrors = await api('/traces?errors=true&limit=50');
    await rowsAre(withErrors.traces.length);
    assert.deepEqual(await shownIds(), withErrors.traces.map((t) => t.traceId));
    await page.getByLabel('Project').fill('batch');
    await page.getByLabel('Project').press('Enter');
    await page.waitForURL(/project=batch/);
    const batchErrors = await api('/traces?errors=true&project=batch&limit=50');
    assert.equal(batchErrors.traces.length, 11);
    await rowsAre(11);
    await page.goBack();
    await page.waitForURL(`${origin}/traces?errors=true`);
    await rowsAre(withErrors.traces.length);
    await page.goBack();
    await page.waitForURL(`${origin}/traces`);
    await rowsAre(50);
    // Started from 2024-06-10 06:13 UTC: the fixtures' traces, not the batch of 2024-05-29.
    await page.goto(`${origin}/traces?from=2024-06-10T06:13`);
    const since = await api(`/traces?from=${1718000000000000000n - 20000000000n}&limit=50`);
    assert.equal(since.traces.filter((t) => t.project === 'batch').length, 0);
    await rowsAre(since.traces.length);
    assert.deepEqual(await shownIds(), since.traces.map((t) => t.traceId));
  });

  const weatherId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const weather = await api(`/traces/${weatherId}`);

  await check('a trace: cards, the span tree in the API\'s order with kind, status and duration, the canonical trace beside it', async () => {
    await page.goto(`${origin}/traces?project=weather-bot`);
    await page.getByRole('link', { name: weather.rootName }).click();
    await page.waitForURL(`${origin}/traces/${weatherId}`);
    await page.getByTestId('span-row').first().waitFor();
    assert.equal(await page.getByTestId('card-spans').locator('.card-value').innerText(), String(weather.spanCount));
    assert.equal(await page.getByTestId('card-duration').locator('.card-value').innerText(), '2.5 s');
    assert.deepEqual(await page.locator('[data-testid=span-row] [data-span-id]').allInnerTexts(), weather.spans.map((s) => s.name));
    const chat = weather.spans[1];
    const row = await page.getByTestId('span-row').nth(1).locator('td').allInnerTexts();
    assert.deepEqual(row.slice(1, 4), ['client', 'UNSET', `${Number(BigInt(chat.endTimeUnixNano) - BigInt(chat.startTimeUnixNano)) / 1e6} ms`]);
    // The canonical trace: as many tool calls and turns as the API's, the output as text.
    const canonical = page.getByTestId('canonical-trace');
    assert.equal(await canonical.getByTestId('canonical-tool-calls').locator('tbody tr').count(), weather.canonicalTrace.toolCalls.length);
    assert.equal(await canonical.getByTestId('canonical-turns').locator('li').count(), weather.canonicalTrace.turns.length);
    assert.ok((await canonical.innerText()).includes(weather.canonicalTrace.output));
    // No trace eval rule scored it: said so.
    await page.getByTestId('online-scores-none').waitFor();
  });

  await check('the span tree from the keyboard: arrows select, the attributes table follows, left folds, right unfolds; the URL keeps the span', async () => {
    await page.locator(`[data-span-id="${weather.spans[0].spanId}"]`).focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForURL(new RegExp(`span=${weather.spans[1].spanId}`));
    await page.waitForFunction((id) => document.activeElement?.dataset.spanId === id, weather.spans[1].spanId);
    const attributes = page.getByTestId('span-attributes');
    assert.equal(await attributes.locator('tbody tr').count(), Object.keys(weather.spans[1].attributes).length);
    assert.equal(await attributes.locator('tr', { hasText: 'gen_ai.usage.input_tokens' }).locator('td').innerText(), String(weather.spans[1].attributes['gen_ai.usage.input_tokens']));
    assert.equal(await page.getByTestId('span-resource').locator('tbody tr').count(), Object.keys(weather.spans[1].resource).length);
    await page.keyboard.press('ArrowUp');
    await page.waitForURL(new RegExp(`span=${weather.spans[0].spanId}`));
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=span-row]').length === 1);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=span-row]').length === n, weather.spans.length);
    await page.locator(`[data-span-id="${weather.spans[1].spanId}"]`).click();
    await shoot('trace');
  });

  await check('online scores: real evaluations by the fake judge (whole trace and spans: a score, a failure, an error) as GET /api/v1/traces/{id} has them; a span score selects its span', async () => {
    let online = null;
    for (let i = 0; i < 300 && !(online?.evaluations?.length >= 3); i += 1) {
      if (i > 0) await new Promise((done) => setTimeout(done, 100));
      online = await api(`/traces/${onlineTrace}`);
    }
    assert.equal(online.evaluations.length, 3, `the evaluations never arrived: ${JSON.stringify(online.evaluations)}`);
    const spanNamed = (name) => online.spans.find((s) => s.name === name);
    const byTarget = (spanId) => online.evaluations.find((e) => e.spanId === spanId);
    const whole = byTarget(null);
    const draft = byTarget(spanNamed('llm draft').spanId);
    const failed = byTarget(spanNamed('llm check').spanId);
    // What the fake judge was scripted to answer, as the server stored it.
    assert.deepEqual([whole.ruleName, whole.score, whole.success, whole.reason, whole.error], ['answers', 0.875, true, 'It answered.', null]);
    assert.deepEqual([draft.ruleName, draft.score, draft.success, draft.reason, draft.error], ['model calls', 0.25, false, HOSTILE_OUTPUT, null]);
    assert.deepEqual([failed.score, failed.success], [null, false]);
    assert.match(failed.error, /400/);
    await page.goto(`${origin}/traces/${onlineTrace}`);
    const table = page.getByTestId('online-scores');
    await table.waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.innerText.trim())));
    const shownAt = (ms) => new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
    assert.deepEqual(rows, online.evaluations.map((e) => [
      e.ruleName, e.evaluatorName, e.spanId ? online.spans.find((s) => s.spanId === e.spanId).name : 'whole trace',
      e.score == null ? '\u2014' : e.score.toFixed(3), e.error ? 'ERROR' : e.success ? 'PASSED' : 'FAILED', e.error ?? e.reason, shownAt(e.judgedAtMs),
    ]));
    await table.getByRole('button', { name: 'llm check' }).click();
    await page.waitForURL(new RegExp(`span=${failed.spanId}`));
    assert.equal(await page.locator('#span-title').innerText(), 'llm check');
    await table.getByRole('button', { name: 'llm draft' }).click();
    await page.waitForURL(new RegExp(`span=${draft.spanId}`));
    assert.equal(await page.locator('#span-title').innerText(), 'llm draft');
    assert.equal(await page.locator('main img, main b').count(), 0);
    await shoot('trace-online-scores', { fullPage: false });
    // The LLM connections view below starts from none: the rules and their connection go.
    for (const rule of onlineRules) await api(`/trace-eval-rules/${rule.id}`, { method: 'DELETE' });
    await api(`/llm-connections/${judgeConnection.id}`, { method: 'DELETE' });
  });

  await check('hostile markup in span names, attribute keys and values, status, events and input is shown as text', async () => {
    await page.goto(`${origin}/traces/${hostileTrace}`);
    await page.getByTestId('span-row').nth(1).waitFor();
    assert.deepEqual(await page.locator('[data-testid=span-row] [data-span-id]').allInnerTexts(), ['agent <script>window.__krinoXss=6</script>', HOSTILE_NAME]);
    assert.ok((await page.getByTestId('trace-io').innerText()).includes(HOSTILE_INPUT));
    await page.getByRole('button', { name: HOSTILE_NAME, exact: true }).click();
    const detail = page.getByTestId('span-detail');
    await detail.getByText(HOSTILE_KEY).waitFor();
    const text = await detail.innerText();
    for (const shown of [HOSTILE_KEY, HOSTILE_OUTPUT, HOSTILE_INPUT, '<i>exception</i>', '<img src=x onerror="window.__krinoXss=7">']) assert.ok(text.includes(shown), shown);
    await page.getByText(HOSTILE_KEY).hover();
    assert.equal(await page.evaluate(() => window.__krinoXss), undefined);
    assert.equal(await page.locator('main img, main script, main b, main i').count(), 0);
    assert.equal(await page.getByTestId('canonical-error').count() + await page.getByTestId('canonical-trace').count(), 1);
  });

  await check('dark mode: the trace page follows the system', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${origin}/traces/${weatherId}?span=${weather.spans[1].spanId}`);
    await page.getByTestId('span-detail').waitFor();
    assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), 'rgb(18, 21, 27)');
    await shoot('trace-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  const connections = () => api('/llm-connections');
  await check('LLM connections: created from the keyboard with an environment variable, the API\'s validation message shown', async () => {
    await page.goto(`${origin}/`);
    await page.getByRole('link', { name: 'LLM connections' }).click();
    await page.waitForURL(`${origin}/llm-connections`);
    await page.getByText('No connection yet.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('fast judge');
    await page.getByLabel('Base URL').fill('http://127.0.0.1:9/v1');
    await page.getByLabel('Model').fill('gpt-4o-mini');
    await page.getByLabel('Variable name').fill('not a variable!');
    await page.getByLabel('Variable name').press('Enter');
    const alert = page.getByTestId('connection-form').getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /credentialRef/);
    assert.equal((await connections()).length, 0);
    await page.getByLabel('Variable name').fill('OPENAI_API_KEY');
    await page.getByLabel('Calls in flight').fill('4');
    await page.getByLabel('Variable name').press('Enter');
    await page.getByTestId('connection-notice').getByText('Created fast judge.').waitFor();
    const [made] = await connections();
    assert.deepEqual([made.credential, made.credentialRef, made.maxConcurrency, made.model], ['ENVIRONMENT', 'OPENAI_API_KEY', 4, 'gpt-4o-mini']);
    assert.equal(await page.getByTestId('connection-row').locator('[data-testid=connection-credential]').innerText(), 'environment variable OPENAI_API_KEY');
    assert.equal(await page.getByTestId('connection-limits').innerText(), `4 in flight, ${made.timeoutMs.toLocaleString('en-US')} ms timeout, ${made.maxRetries} retries`);
  });

  await check('LLM connections: an inline key is shown as "inline key set", never as the key; edit keeps it; delete', async () => {
    await page.getByLabel('Name', { exact: true }).fill('<b>careful</b> judge');
    await page.getByLabel('Base URL').fill('https://api.example.invalid/v1');
    await page.getByLabel('Model').fill('claude-sonnet-4-5');
    await page.getByLabel('Provider').selectOption('anthropic');
    await page.getByLabel('An inline key, stored encrypted').check();
    await page.getByLabel(/^API key/).fill(INLINE_KEY);
    await page.getByRole('button', { name: 'Create connection' }).click();
    await page.getByTestId('connection-notice').getByText('Created <b>careful</b> judge.').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=connection-row]').length === 2);
    const list = await connections();
    const careful = list.find((c) => c.model === 'claude-sonnet-4-5');
    assert.deepEqual([careful.credential, careful.hasApiKey, careful.provider], ['INLINE', true, 'anthropic']);
    const row = page.getByTestId('connection-row').filter({ hasText: 'claude-sonnet-4-5' });
    assert.equal(await row.getByTestId('connection-credential').innerText(), 'inline key set');
    assert.ok(!(await page.content()).includes(INLINE_KEY), 'the key is on the page');
    await shoot('llm-connections');
    // Edit: a new model; the key field left empty keeps the stored key.
    await row.getByRole('button', { name: 'Edit <b>careful</b> judge' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'conn-name');
    assert.equal(await page.getByLabel(/^API key/).inputValue(), '');
    await page.getByLabel('Model').fill('claude-opus-4');
    await page.keyboard.press('Enter');
    await page.getByTestId('connection-notice').getByText('Saved <b>careful</b> judge.').waitFor();
    const edited = await api(`/llm-connections/${careful.id}`);
    assert.deepEqual([edited.model, edited.credential, edited.hasApiKey], ['claude-opus-4', 'INLINE', true]);
    await page.getByTestId('connection-row').filter({ hasText: 'claude-opus-4' }).waitFor();
    page.once('dialog', (dialog) => dialog.accept());
    await page.getByRole('button', { name: 'Delete fast judge' }).click();
    await page.getByTestId('connection-notice').getByText('Deleted fast judge.').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=connection-row]').length === 1);
    assert.deepEqual((await connections()).map((c) => c.id), [careful.id]);
    assert.equal(await page.evaluate(() => window.__krinoXss), undefined);
    assert.ok(!(await page.content()).includes(INLINE_KEY), 'the key is on the page');
  });

  // Agreement: a real run, annotated by two reviewers (this tab's ADMIN key and bob's EDITOR key).
  const runId = await runExperiment(krino, experimentFile(dir, `${origin}/`), { KRINO_UI_VARIANT: 'a' });
  const admin = await api('/api-keys', { method: 'POST', body: JSON.stringify({ name: 'me', role: 'ADMIN' }) });
  key = admin.key;
  const bob = await api('/api-keys', { method: 'POST', body: JSON.stringify({ name: 'bob', role: 'EDITOR' }) });
  const entries = (await api(`/review-queue?runId=${runId}&size=25`)).content;
  const annotate = (entry, verdict, as) => api(`/runs/${runId}/items/${entry.itemResultId}/annotation`, { method: 'PUT', body: JSON.stringify({ verdict }) }, as);
  const mine = ['CORRECT', 'INCORRECT', 'CORRECT', 'INCORRECT', 'CORRECT', 'UNSURE', 'CORRECT', 'INCORRECT'];
  const bobs = ['CORRECT', 'INCORRECT', 'INCORRECT', 'INCORRECT', 'CORRECT', 'CORRECT'];
  for (const [i, verdict] of bobs.entries()) await annotate(entries[i], verdict, bob.key);
  for (const [i, verdict] of mine.entries()) await annotate(entries[i], verdict, key);
  const agreement = await api(`/runs/${runId}/agreement`);

  await check('the run page shows judge–human agreement per evaluator and reviewer agreement as the API computes them', async () => {
    await page.goto(`${origin}/`);
    await page.evaluate((text) => sessionStorage.setItem('krino.apiKey', text), key);
    await page.goto(`${origin}/runs/${runId}`);
    const section = page.getByTestId('agreement');
    await section.waitFor();
    assert.match(await page.getByTestId('agreement-summary').innerText(), new RegExp(`^${agreement.annotatedItems} annotated items, ${agreement.unsureItems} of them`));
    assert.ok(agreement.evaluators.length >= 3 && agreement.reviewers.length === 1);
    const percentOf = (rate) => (rate == null ? '\u2014' : `${(rate * 100).toFixed(1)}%`);
    const kappaOf = (row) => (row.cohensKappa == null ? `none: ${row.kappaNote}` : row.cohensKappa.toFixed(3));
    const rows = page.getByTestId('agreement-evaluator');
    assert.equal(await rows.count(), agreement.evaluators.length);
    for (const [i, expected] of agreement.evaluators.entries()) {
      const cells = await rows.nth(i).locator(':scope > td').allInnerTexts();
      assert.deepEqual(cells.slice(0, 5), [expected.evaluatorName, String(expected.items), String(expected.agreements), percentOf(expected.agreementRate), kappaOf(expected)]);
      const c = expected.confusion;
      assert.deepEqual(await rows.nth(i).getByTestId('confusion').locator('tbody td').allInnerTexts(),
        [c.judgePassHumanCorrect, c.judgePassHumanIncorrect, c.judgeFailHumanCorrect, c.judgeFailHumanIncorrect].map(String));
    }
    const pair = agreement.reviewers[0];
    const reviewer = page.getByTestId('agreement-reviewer');
    await reviewer.getByText(`\u2026${bob.id.slice(-6)}`).waitFor();  // key names arrive after the ids
    const cells = await reviewer.locator(':scope > td').allInnerTexts();
    assert.match(cells[0], /bob|me/);
    assert.deepEqual(cells.slice(1, 5), [String(pair.items), String(pair.agreements), percentOf(pair.agreementRate), kappaOf(pair)]);
    assert.deepEqual([pair.items, pair.agreements], [5, 4]);
    assert.deepEqual(await reviewer.getByTestId('confusion').locator('tbody td').allInnerTexts(),
      [pair.confusion.bothCorrect, pair.confusion.firstCorrectSecondIncorrect, pair.confusion.firstIncorrectSecondCorrect, pair.confusion.bothIncorrect].map(String));
    if (shots) {
      // The section with a margin of page around it, as it sits on the run page.
      const box = await section.boundingBox();
      await page.screenshot({ path: join(shots, 'run-agreement.png'), fullPage: true,
        clip: { x: Math.max(box.x - 24, 0), y: Math.max(box.y - 16, 0), width: Math.min(box.width + 48, 1280), height: box.height + 32 } });
    }
  });

  step = 'the whole session';
  await checkSession(page, seen, origin);
} catch (error) {
  await reportFailure(step, error, page, shots ?? dir);
} finally {
  await browser?.close();
  serve.kill('SIGTERM');
  fakeLlm.kill('SIGTERM');
  if (!process.exitCode) rmSync(dir, { recursive: true, force: true });
}
