// The diff of two runs of an experiment (an item's change is the gate's: REGRESSED only when the
// run's regression is significant; a pass that flipped is coloured whatever its status): the pass-rate movement, improved and regressed counts, the
// significance verdict with its p-values and intervals, each evaluator's change, and the paged
// cases with their per-evaluator deltas, filtered by change (spec §9). Everything is in the URL.
import { html } from '../lib/preact.js';
import { setQuery } from '../lib/router.js';
import { decimal, integer, interval, pValue, percent, preview, signed, signedPoints } from '../lib/format.js';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { useApi } from '../components/use_api.js';

const FILTERS = ['ALL', 'REGRESSED', 'IMPROVED', 'CHANGED'];

function Verdict({ summary }) {
  const significant = summary.significant;
  return html`
    <p class=${`verdict ${significant ? (summary.passRateDelta < 0 ? 'bad' : 'good') : 'muted'}`} data-testid="verdict">
      ${significant ? 'Significant' : 'Not significant'}: ${summary.passRateTest ?? 'test'} p = ${pValue(summary.passRatePValue)}
      ${summary.passRateCi ? html`, 95% CI of the change ${interval(summary.passRateCi, signedPoints)}` : ''}
      ${' '}on ${integer(summary.pairedItems)} paired items (pairing: ${summary.pairing ?? '\u2014'}).
    </p>`;
}

export function DiffView({ params, query }) {
  const experimentId = encodeURIComponent(params.experimentId);
  const candidate = query.get('candidate') ?? '';
  const baseline = query.get('baseline') ?? '';
  const status = query.get('status') ?? 'ALL';
  const page = Number(query.get('page') ?? 0) || 0;
  const path = candidate && baseline
    ? `/experiments/${experimentId}/runs/${encodeURIComponent(candidate)}/diff?baselineRunId=${encodeURIComponent(baseline)}&status=${status}&page=${page}&size=50`
    : null;
  const { data, error, loading } = useApi(path);
  const summary = data?.summary;
  const cases = data?.cases;
  const trends = useApi(`/experiments/${experimentId}/trends?limit=1`);
  const crumbs = [{ label: 'Dashboard', href: '/' }];
  if (trends.data) {
    crumbs.push({ label: trends.data.projectName, href: `/projects/${encodeURIComponent(trends.data.projectName)}` },
      { label: trends.data.experimentName, href: `/experiments/${experimentId}` });
  }
  return html`
    <${PageHeader} title="Diff" crumbs=${crumbs}>
      <p class="subtitle">
        Baseline <a href=${`/runs/${encodeURIComponent(baseline)}`}><code>${baseline}</code></a>
        \u2192 candidate <a href=${`/runs/${encodeURIComponent(candidate)}`}><code>${candidate}</code></a>
      </p>
    </${PageHeader}>
    ${!path && html`<${Empty}>Choose two runs: a diff needs ?candidate= and ?baseline=.</${Empty}>`}
    ${loading && !data && html`<${Loading} what="Comparing" />`}
    <${ErrorNote} error=${error} what="Diff" />
    ${summary && html`
      <div class="cards">
        <${Card} testId="diff-pass-rate" label="Pass rate" value=${`${percent(summary.baselinePassRate)} \u2192 ${percent(summary.candidatePassRate)}`}
          detail=${signedPoints(summary.passRateDelta)} />
        <${Card} testId="diff-regressed" label="Regressed" value=${integer(summary.regressedCount)} detail="items that got worse" />
        <${Card} testId="diff-improved" label="Improved" value=${integer(summary.improvedCount)} detail="items that got better" />
        <${Card} label="Unchanged" value=${integer(summary.unchangedCount)} detail=${`${integer(summary.addedCount)} added, ${integer(summary.removedCount)} removed`} />
      </div>
      <${Verdict} summary=${summary} />
      <section aria-labelledby="diff-evaluators-heading">
        <h2 id="diff-evaluators-heading">Evaluators</h2>
        <table class="data" data-testid="diff-evaluators">
          <caption class="sr-only">Evaluator means, baseline and candidate</caption>
          <thead><tr><th scope="col">Evaluator</th><th scope="col" class="num">Baseline</th><th scope="col" class="num">Candidate</th><th scope="col" class="num">Change</th>
            <th scope="col" class="num">p-value</th><th scope="col" class="num">95% CI</th><th scope="col">Verdict</th></tr></thead>
          <tbody>
            ${(summary.evaluators ?? []).map((e) => html`
              <tr>
                <td>${e.name}</td><td class="num">${decimal(e.baselineMean)}</td><td class="num">${decimal(e.candidateMean)}</td>
                <td class=${`num ${e.delta < 0 ? 'fail' : e.delta > 0 ? 'pass' : ''}`}>${signed(e.delta)}</td>
                <td class="num">${pValue(e.pValue)}</td><td class="num">${interval(e.ci, (v) => signed(v))}</td>
                <td><${Badge} status=${e.status} />${e.significant ? ' significant' : ''}</td>
              </tr>`)}
          </tbody>
        </table>
      </section>`}
    ${summary && html`
      <section aria-labelledby="cases-heading">
        <h2 id="cases-heading">Items</h2>
        <form class="filters" role="search" aria-label="Filter items" onSubmit=${(event) => event.preventDefault()}>
          <div class="field"><label for="filter-change">Change</label>
            <select id="filter-change" name="status" value=${status} onChange=${(event) => setQuery({ status: event.target.value === 'ALL' ? null : event.target.value, page: null })}>
              ${FILTERS.map((f) => html`<option value=${f}>${f === 'ALL' ? 'All' : f.toLowerCase()}</option>`)}
            </select>
          </div>
        </form>
        ${cases && cases.content.length === 0 && html`<${Empty}>No items.</${Empty}>`}
        ${cases && cases.content.length > 0 && html`
          <div class="table-scroll">
            <table class="data" data-testid="cases">
              <caption class="sr-only">Items compared</caption>
              <thead><tr><th scope="col" class="num">#</th><th scope="col">Dataset id</th><th scope="col">Change</th><th scope="col">Input</th><th scope="col">Pass</th><th scope="col">Evaluator deltas</th></tr></thead>
              <tbody>
                ${cases.content.map((c) => html`
                  <tr>
                    <td class="num"><a href=${`/runs/${encodeURIComponent(c.status === 'REMOVED' ? baseline : candidate)}?q=${encodeURIComponent(c.datasetItemId ?? '')}`}>${c.index}</a></td>
                    <td>${c.datasetItemId ?? ''}</td>
                    <td><${Badge} status=${c.status} />${c.severe ? html` <span class="badge bad">severe</span>` : ''}</td>
                    <td class="input-preview">${preview(c.input)}</td>
                    <td class=${`nowrap ${c.passFlip ? (c.candidatePass ? 'pass' : 'fail') : ''}`}>${c.baselinePass == null ? '\u2014' : c.baselinePass ? 'pass' : 'fail'} \u2192 ${c.candidatePass == null ? '\u2014' : c.candidatePass ? 'pass' : 'fail'}</td>
                    <td>${(c.evaluators ?? []).filter((e) => e.delta).map((e) => html`<span class=${`delta ${e.delta < 0 ? 'fail' : 'pass'}`}>${e.name} ${signed(e.delta, 2)}</span> `)}</td>
                  </tr>`)}
              </tbody>
            </table>
          </div>
          <div class="pager">
            <button type="button" disabled=${page === 0} onClick=${() => setQuery({ page: page - 1 || null })}>Previous</button>
            <span class="muted">page ${page + 1} of ${integer(Math.max(1, cases.totalPages))}</span>
            <button type="button" disabled=${cases.last} onClick=${() => setQuery({ page: page + 1 })}>Next</button>
          </div>`}
      </section>`}`;
}
