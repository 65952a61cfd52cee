// A run: totals (items, tokens, cost, latency, with how many items were priced), each evaluator's
// score distribution, and its items, filtered by status, evaluator and text on the server and
// paged by the server's keyset cursor, so a run of a million items opens as fast as one of ten.
// The filters and the page are in the URL.
import { html, useContext, useEffect, useRef, useState } from '../lib/preact.js';
import { setQuery } from '../lib/router.js';
import { between, decimal, integer, interval, jsonText, milliseconds, percent, preview, usd, when } from '../lib/format.js';
import { ExactNumber, api, queryString } from '../lib/api.js';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { Histogram } from '../components/histogram.js';
import { ItemAnnotations } from '../components/annotations.js';
import { RunAgreement, RunJudgeJobs } from '../components/agreement.js';
import { RefreshContext, useApi } from '../components/use_api.js';

const PAGE_SIZE = 50;
const STATUSES = ['ALL', 'PASSED', 'FAILED', 'ERROR'];

export const itemStatus = (item) => (item.error ? 'ERROR' : item.success ? 'PASSED' : 'FAILED');

// The cards of spec §2.3: total tokens; total cost to 4 decimals, with "N/M items priced" only when
// some tokenized items have no cost (no card when nothing was priced); the items' average latency
// (the wall time when no item had one).
function Totals({ run }) {
  const wall = between(run.startedAt, run.completedAt);
  const tokens = run.tokensIn == null && run.tokensOut == null ? null : (run.tokensIn ?? 0) + (run.tokensOut ?? 0);
  const partlyPriced = run.pricedItemCount < run.tokenizedItemCount;
  return html`
    <div class="cards">
      <${Card} testId="card-pass-rate" label="Pass rate" value=${percent(run.passRate)} detail=${`${integer(run.passedItems)} of ${integer(run.totalItems)} items passed`} />
      ${tokens !== null && html`<${Card} testId="card-tokens" label="Total tokens" value=${integer(tokens)}
        detail=${`${integer(run.tokensIn)} in, ${integer(run.tokensOut)} out`} />`}
      ${run.costUsd != null && html`<${Card} testId="card-cost" label="Total cost" value=${`$${run.costUsd.toFixed(4)}`}
        detail=${partlyPriced ? `${integer(run.pricedItemCount)}/${integer(run.tokenizedItemCount)} items priced` : ''} />`}
      <${Card} testId="card-latency" label=${run.latencyMsMean != null ? 'Avg latency' : 'Wall time'}
        value=${milliseconds(run.latencyMsMean ?? wall)} detail=${run.completedAt ? `ended ${when(run.completedAt)}` : 'still running'} />
    </div>`;
}

function Evaluators({ state }) {
  const { data, error, loading } = state;
  if (loading) return html`<${Loading} what="Loading evaluators" />`;
  if (error?.status === 404) return html`<${Empty}>This server does not summarise evaluators.</${Empty}>`;
  if (error) return html`<${ErrorNote} error=${error} what="Evaluators" />`;
  const evaluators = data?.evaluators ?? [];
  if (evaluators.length === 0) return html`<${Empty}>No evaluator results.</${Empty}>`;
  return html`
    <ul class="evaluators" data-testid="evaluators">
      ${evaluators.map((evaluator) => html`
        <li class="card evaluator">
          <div class="card-label">${evaluator.name}</div>
          <div class="card-value">${decimal(evaluator.meanScore)}</div>
          <div class="card-detail">mean score, 95% CI ${interval(evaluator.scoreCi, (v) => decimal(v, 3))}</div>
          <div class="card-detail">${percent(evaluator.passRate)} passed (${integer(evaluator.passed)}/${integer(evaluator.count)})</div>
          <${Histogram} histogram=${evaluator.histogram} label=${evaluator.name} />
        </li>`)}
    </ul>`;
}

// Tool calls an agent made, wherever the outputs keep them.
function toolCallsOf(item) {
  const outputs = item.actualOutputs ?? {};
  return outputs.toolCalls ?? outputs.tool_calls ?? outputs.trajectory ?? null;
}

// A number, a boolean, null or a one-line string of at most 60 characters: shown beside its name.
const isShort = (value) => value === null || typeof value === 'number' || typeof value === 'boolean' || value instanceof ExactNumber
  || (typeof value === 'string' && value.length <= 60 && !value.includes('\n'));
const shortText = (value) => (value === null ? 'null' : String(value));

// A section of an item: each member on its own, a string as its text (line breaks and quotes as
// written, not JSON-escaped), anything else as indented JSON. Always text: never markup.
export function Section({ title, value, skip = [] }) {
  if (value === undefined || value === null) return null;
  const members = typeof value === 'object' && !Array.isArray(value) ? Object.entries(value).filter(([key]) => !skip.includes(key)) : [[null, value]];
  if (members.length === 0) return null;
  return html`
    <section class="detail-section"><h4>${title}</h4>
      ${members.map(([key, member]) => (key !== null && members.length > 1 && isShort(member)
        ? html`<div class="kv"><span class="member-name">${key}</span><span class="kv-value">${shortText(member)}</span></div>`
        : html`
          ${key !== null && members.length > 1 && html`<div class="member-name">${key}</div>`}
          <pre>${typeof member === 'string' ? member : jsonText(member)}</pre>`))}
    </section>`;
}

export function ItemDetail({ item }) {
  const results = item.evalResults ?? [];
  const toolCalls = toolCallsOf(item);
  return html`
    <div class="item-detail" data-testid="item-detail">
      ${item.error && html`<p class="error">${item.error.stage ?? ''} ${item.error.code ?? ''}: ${item.error.message ?? jsonText(item.error)}</p>`}
      <div class="detail-grid">
        <${Section} title="Inputs" value=${item.inputs} />
        <${Section} title="Expected outputs" value=${item.expectedOutputs} />
        <${Section} title="Actual outputs" value=${item.actualOutputs} skip=${['toolCalls', 'tool_calls', 'trajectory']} />
        <${Section} title="Tool calls" value=${toolCalls} />
      </div>
      ${results.length > 0 && html`
        <table class="data compact">
          <caption>Evaluator results</caption>
          <thead><tr><th scope="col">Evaluator</th><th scope="col" class="num">Score</th><th scope="col" class="num">Threshold</th><th scope="col">Verdict</th><th scope="col">Reason</th></tr></thead>
          <tbody>
            ${results.map((result) => html`
              <tr>
                <td>${result.name}</td>
                <td class="num">${decimal(result.score)}</td>
                <td class="num">${decimal(result.threshold)}</td>
                <td><${Badge} status=${result.success ? 'PASSED' : 'FAILED'} /></td>
                <td class="reason">${result.reason ?? ''}</td>
              </tr>`)}
          </tbody>
        </table>`}
      <div class="detail-grid">
        <${Section} title="Metadata" value=${item.metadata} />
        <${Section} title="Metrics" value=${Object.fromEntries(['tokensIn', 'tokensOut', 'costUsd', 'latencyMs', 'durationMs'].filter((k) => item[k] != null).map((k) => [k, item[k]]))} />
      </div>
    </div>`;
}

function ItemRow({ runId, item, evaluatorNames, columns }) {
  const [open, setOpen] = useState(false);
  const scores = new Map((item.evalResults ?? []).map((result) => [result.name, result]));
  const status = itemStatus(item);
  const detailId = `item-${item.id ?? item.index}`;
  return html`
    <tr class=${open ? 'open' : ''} data-testid="item-row">
      <td><button type="button" class="expand" aria-expanded=${open} aria-controls=${detailId} onClick=${() => setOpen(!open)}
        aria-label=${`${open ? 'Hide' : 'Show'} item ${item.index}`}>${open ? '\u25be' : '\u25b8'}</button></td>
      <td class="num">${item.index}</td>
      <td>${item.datasetItemId ?? (typeof item.itemId === 'string' ? item.itemId : '')}</td>
      <td><${Badge} status=${status} /></td>
      <td class="input-preview">${preview(item.inputs)}</td>
      ${evaluatorNames.map((name) => {
        const result = scores.get(name);
        return html`<td class=${`num ${result ? (result.success ? 'pass' : 'fail') : ''}`}>${result ? decimal(result.score, 2) : ''}</td>`;
      })}
      <td class="num">${milliseconds(item.latencyMs)}</td>
      <td class="num">${usd(item.costUsd)}</td>
    </tr>
    ${open && html`<tr class="detail-row" id=${detailId}><td colspan=${columns}><${ItemDetail} item=${item} />
      <${ItemAnnotations} runId=${runId} itemId=${item.id} /></td></tr>`}`;
}

// The text search waits for a pause in typing, then replaces the URL (one history entry per search,
// not per key).
function SearchBox({ value }) {
  const [text, setText] = useState(value);
  const timer = useRef(null);
  useEffect(() => setText(value), [value]);
  const changed = (event) => {
    setText(event.target.value);
    clearTimeout(timer.current);
    const next = event.target.value;
    timer.current = setTimeout(() => setQuery({ q: next, after: null }, { replace: true }), 250);
  };
  return html`<div class="field"><label for="filter-q">Search</label><input id="filter-q" type="search" name="q" value=${text} onInput=${changed} placeholder="words in inputs, outputs, reasons" /></div>`;
}

// One page of items from the server's keyset pages. The server looks at a bounded window of the run
// per request, so a rare match can leave a page short (even empty) with more to come: ask on until
// the page is full, the run ends, or a few requests were spent (then Next goes on from there).
function useItemPage(runId, filters, after) {
  const refresh = useContext(RefreshContext);
  const [state, setState] = useState({ page: null, error: null, loading: true });
  const key = queryString({ ...filters, after });
  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, error: null, loading: true }));
    (async () => {
      const content = [];
      let cursor = after;
      let matchCount = null;
      for (let requests = 0; requests < 20; requests += 1) {
        const page = await api(`/runs/${runId}/items${queryString({ ...filters, after: cursor, size: PAGE_SIZE - content.length })}`, { signal: controller.signal });
        content.push(...page.content);
        matchCount = page.matchCount;
        cursor = page.nextAfter;
        if (cursor == null || content.length >= PAGE_SIZE) break;
        // Rare matches: show those found so far while the search goes on.
        if (page.content.length > 0 && !controller.signal.aborted) {
          const partial = { content: [...content], nextAfter: cursor, matchCount };
          setState((previous) => ({ ...previous, page: partial, loading: true, shownFor: key }));
        }
      }
      return { content, nextAfter: cursor, matchCount };
    })().then(
      (page) => setState({ page, error: null, loading: false, shownFor: key }),
      (error) => { if (error.name !== 'AbortError') setState({ page: null, error, loading: false }); },
    );
    return () => controller.abort();
  }, [runId, key, refresh]);
  // `shown`: the rows on screen are this query's (all of them once `ready`).
  return { ...state, shown: state.shownFor === key, ready: !state.loading && state.shownFor === key };
}

function Items({ runId, run, query, evaluators }) {
  const status = query.get('status') ?? 'ALL';
  const evaluator = query.get('evaluator') ?? '';
  const evaluatorStatus = query.get('evaluatorStatus') ?? '';
  const search = query.get('q') ?? '';
  const after = query.get('after') ?? '';
  const [trail, setTrail] = useState([]);  // the cursors of the pages before this one
  const filters = { status: status === 'ALL' ? '' : status, evaluator, evaluatorStatus: evaluator ? evaluatorStatus : '', q: search };
  const { page, error, loading, shown, ready } = useItemPage(runId, filters, after);
  const evaluatorNames = evaluators.length ? evaluators : [...new Set((page?.content ?? []).flatMap((item) => (item.evalResults ?? []).map((r) => r.name)))];
  const evaluatorColumns = evaluatorNames.slice(0, 4);
  const columns = 7 + evaluatorColumns.length;
  const filter = (changes) => {
    setTrail([]);
    setQuery({ ...changes, after: null });
  };
  const next = () => {
    setTrail([...trail, after]);
    setQuery({ after: page.nextAfter });
  };
  const previous = () => {
    const before = trail[trail.length - 1] ?? '';
    setTrail(trail.slice(0, -1));
    setQuery({ after: before });
  };
  return html`
    <form class="filters" role="search" aria-label="Filter items" onSubmit=${(event) => event.preventDefault()}>
      <div class="field"><label for="filter-status">Status</label>
        <select id="filter-status" name="status" value=${status} onChange=${(event) => filter({ status: event.target.value === 'ALL' ? null : event.target.value })}>
          ${STATUSES.map((s) => html`<option value=${s}>${s === 'ALL' ? 'All' : s.toLowerCase()}</option>`)}
        </select>
      </div>
      <div class="field"><label for="filter-evaluator">Evaluator</label>
        <select id="filter-evaluator" name="evaluator" value=${evaluator} onChange=${(event) => filter({ evaluator: event.target.value })}>
          <option value="">any</option>
          ${evaluatorNames.map((name) => html`<option value=${name}>${name}</option>`)}
        </select>
      </div>
      <div class="field"><label for="filter-evaluator-status">Evaluator verdict</label>
        <select id="filter-evaluator-status" name="evaluatorStatus" value=${evaluatorStatus} disabled=${!evaluator} onChange=${(event) => filter({ evaluatorStatus: event.target.value })}>
          <option value="">any</option><option value="PASSED">passed</option><option value="FAILED">failed</option>
        </select>
      </div>
      <${SearchBox} value=${search} />
    </form>
    <${ErrorNote} error=${error} what="Items" />
    <p class="muted" aria-live="polite" data-testid="match-count" data-query=${query.toString()} data-shown=${shown ? 'true' : 'false'} data-ready=${ready ? 'true' : 'false'}>
      ${page ? (page.matchCount != null ? `${integer(page.matchCount)} of ${integer(run.totalItems)} items match`
        : `${integer(page.content.length)}${page.nextAfter != null ? ' or more' : ''} matching items`) : ''}
      ${loading ? ' \u00b7 loading\u2026' : ''}
    </p>
    ${page && page.content.length === 0 && html`<${Empty}>No items match.</${Empty}>`}
    ${page && page.content.length > 0 && html`
      <div class="table-scroll">
        <table class="data items" data-testid="items">
          <caption class="sr-only">Items of the run</caption>
          <thead><tr>
            <th scope="col"><span class="sr-only">Expand</span></th><th scope="col" class="num">#</th><th scope="col">Dataset id</th><th scope="col">Status</th><th scope="col">Input</th>
            ${evaluatorColumns.map((name) => html`<th scope="col" class="num">${name}</th>`)}
            <th scope="col" class="num">Latency</th><th scope="col" class="num">Cost</th>
          </tr></thead>
          <tbody>
            ${page.content.map((item) => html`<${ItemRow} key=${item.id ?? item.index} runId=${runId} item=${item} evaluatorNames=${evaluatorColumns} columns=${columns} />`)}
          </tbody>
        </table>
      </div>`}
    <div class="pager">
      <button type="button" disabled=${!after} onClick=${() => { setTrail([]); setQuery({ after: null }); }}>First page</button>
      <button type="button" disabled=${trail.length === 0} onClick=${previous}>Previous</button>
      <button type="button" disabled=${!page || page.nextAfter == null} onClick=${next}>Next</button>
    </div>`;
}

// The baseline a diff compares with: the newest SUCCESS run of the experiment that started before
// this one (the server's own default for the gate, without the dataset and branch rules).
function useBaseline(run) {
  const runs = useApi(run ? `/experiments/${encodeURIComponent(run.experimentId)}/runs?limit=1000` : null);
  if (!run || !runs.data) return null;
  return runs.data.find((other) => other.id !== run.id && other.status === 'SUCCESS' && String(other.startedAt) < String(run.startedAt)) ?? null;
}

export function RunView({ params, query }) {
  const runId = encodeURIComponent(params.runId);
  const { data: run, error, loading } = useApi(`/runs/${runId}?page=0&size=1`);
  const evaluators = useApi(`/runs/${runId}/evaluators`);
  const baseline = useBaseline(run);
  const evaluatorNames = (evaluators.data?.evaluators ?? []).map((e) => e.name);
  return html`
    <${PageHeader} title=${run ? `Run of ${run.experimentName}` : 'Run'}
      crumbs=${run ? [{ label: 'Dashboard', href: '/' }, { label: run.projectName, href: `/projects/${encodeURIComponent(run.projectName)}` },
        { label: run.experimentName, href: `/experiments/${encodeURIComponent(run.experimentId)}` }] : [{ label: 'Dashboard', href: '/' }]}>
      ${run && html`<p class="subtitle"><${Badge} status=${run.status} /> started ${when(run.startedAt)} \u00b7 <code>${run.id}</code>
        \u00b7 <a data-testid="review-link" href=${`/review?runId=${runId}`}>Review its items</a>
        ${baseline && run.completedAt && html` \u00b7 <a data-testid="diff-link" href=${`/experiments/${encodeURIComponent(run.experimentId)}/diff?candidate=${runId}&baseline=${encodeURIComponent(baseline.id)}`}>Compare with the baseline</a>`}</p>`}
    </${PageHeader}>
    ${loading && !run && html`<${Loading} />`}
    <${ErrorNote} error=${error} what="Run" />
    ${run && html`
      <${Totals} run=${run} />
      <section aria-labelledby="evaluators-heading">
        <h2 id="evaluators-heading">Evaluators</h2>
        <${Evaluators} state=${evaluators} />
      </section>
      <${RunAgreement} runId=${runId} />
      <${RunJudgeJobs} runId=${runId} />
      <section aria-labelledby="items-heading">
        <h2 id="items-heading">Items</h2>
        <${Items} runId=${runId} run=${run} query=${query} evaluators=${evaluatorNames} />
      </section>`}`;
}
