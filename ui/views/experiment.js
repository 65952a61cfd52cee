// An experiment: its latest and best pass rate, the trend of pass rate and evaluator means across
// runs (with confidence bands), and every run with its score, duration and cost.
import { html } from '../lib/preact.js';
import { between, decimal, integer, interval, milliseconds, percent, usd, when } from '../lib/format.js';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { TrendChart } from '../components/trend_chart.js';
import { useApi } from '../components/use_api.js';

// The mean of a run's evaluator means: one score for the table (the chart has them all).
function meanScore(trendRun) {
  const means = (trendRun?.evaluators ?? []).map((e) => e.mean).filter((m) => typeof m === 'number');
  return means.length ? means.reduce((a, b) => a + b, 0) / means.length : null;
}

export function ExperimentView({ params }) {
  const id = encodeURIComponent(params.experimentId);
  const trends = useApi(`/experiments/${id}/trends?limit=50`);
  const runs = useApi(`/experiments/${id}/runs?limit=100`);
  const trendRuns = trends.data?.runs ?? [];
  const byId = new Map(trendRuns.map((run) => [run.runId, run]));
  const list = runs.data ?? [];
  const latest = list[0];
  const best = list.reduce((top, run) => (typeof run.passRate === 'number' && (top === null || run.passRate > top.passRate) ? run : top), null);
  const title = trends.data?.experimentName ?? 'Experiment';
  const project = trends.data?.projectName;
  return html`
    <${PageHeader} title=${title} crumbs=${[{ label: 'Dashboard', href: '/' }, ...(project ? [{ label: project, href: `/projects/${encodeURIComponent(project)}` }] : [])]} />
    <${ErrorNote} error=${trends.error || runs.error} />
    ${(trends.loading || runs.loading) && html`<${Loading} />`}
    ${runs.data && html`
      <div class="cards">
        <${Card} testId="latest-pass-rate" label="Latest pass rate" value=${percent(latest?.passRate)} detail=${latest ? when(latest.startedAt) : 'no runs'} />
        <${Card} testId="best-pass-rate" label="Best pass rate" value=${percent(trends.data?.bestPassRate ?? best?.passRate)}
          detail=${best && best.passRate === (trends.data?.bestPassRate ?? best.passRate) ? when(best.startedAt) : 'over every run'} />
        <${Card} label="Runs" value=${integer(list.length)} detail=${list.length >= 100 ? 'the newest 100' : ''} />
      </div>`}
    <section aria-labelledby="trend-heading">
      <h2 id="trend-heading">Trend</h2>
      ${trends.data && html`<${TrendChart} runs=${trendRuns} />`}
    </section>
    <section aria-labelledby="runs-heading">
      <h2 id="runs-heading">Runs</h2>
      ${runs.data && list.length === 0 && html`<${Empty}>No runs.</${Empty}>`}
      ${list.length > 0 && html`
        <table class="data" data-testid="runs">
          <caption class="sr-only">Runs, newest first</caption>
          <thead><tr>
            <th scope="col">Started</th><th scope="col">Status</th><th scope="col" class="num">Items</th><th scope="col" class="num">Pass rate</th>
            <th scope="col" class="num">95% CI</th><th scope="col" class="num">Score</th><th scope="col" class="num">Duration</th><th scope="col" class="num">Cost</th><th scope="col">Compare</th>
          </tr></thead>
          <tbody>
            ${list.map((run, i) => {
              const trend = byId.get(run.id);
              const previous = list.slice(i + 1).find((r) => r.status === 'SUCCESS');
              return html`
                <tr>
                  <td><a href=${`/runs/${encodeURIComponent(run.id)}`}>${when(run.startedAt)}</a></td>
                  <td><${Badge} status=${run.status} /></td>
                  <td class="num">${integer(run.itemCount)}</td>
                  <td class="num" data-testid="run-pass-rate">${percent(run.passRate)}</td>
                  <td class="num">${interval(trend?.passRateCi)}</td>
                  <td class="num">${decimal(meanScore(trend))}</td>
                  <td class="num">${milliseconds(run.durationMs ?? trend?.durationMs ?? between(run.startedAt, run.completedAt))}</td>
                  <td class="num">${usd(run.costUsd ?? trend?.costUsd)}</td>
                  <td>${previous && run.completedAt && html`<a href=${`/experiments/${id}/diff?candidate=${encodeURIComponent(run.id)}&baseline=${encodeURIComponent(previous.id)}`}>vs previous</a>`}</td>
                </tr>`;
            })}
          </tbody>
        </table>`}
    </section>`;
}
