// How far judges and reviewers agree on a run (docs/server.md "Agreement"): per evaluator, the
// judge against the reviewers' latest verdicts; per pair of reviewers, one against the other. Each
// with its agreement rate, Cohen's kappa (or why there is none) and its 2x2 confusion matrix. Also
// the run's server judge jobs, when it has any. Shown on the run page once the run has annotations.
import { html } from '../lib/preact.js';
import { DASH, decimal, integer, percent, when } from '../lib/format.js';
import { Badge, ErrorNote } from './common.js';
import { Reviewer, useKeyNames } from './annotations.js';
import { useApi } from './use_api.js';

function Kappa({ value, note }) {
  if (typeof value === 'number') return decimal(value, 3);
  return html`<span class="muted">${note ? `none: ${note}` : DASH}</span>`;
}

// A 2x2 matrix: rows are the first rater's labels, columns the second's.
function Confusion({ caption, rows, columns, cells, testId }) {
  return html`
    <table class="data compact confusion" data-testid=${testId}>
      <caption class="sr-only">${caption}</caption>
      <thead><tr><td></td>${columns.map((label) => html`<th scope="col" class="num">${label}</th>`)}</tr></thead>
      <tbody>${rows.map((label, r) => html`<tr><th scope="row">${label}</th>${cells[r].map((count, c) => html`
        <td class=${`num ${count > 0 ? (r === c ? 'agree' : 'disagree') : ''}`}>${integer(count)}</td>`)}</tr>`)}</tbody>
    </table>`;
}

function EvaluatorAgreement({ rows }) {
  return html`
    <div class="table-scroll">
      <table class="data" data-testid="agreement-evaluators">
        <caption>Judge and reviewers, per evaluator</caption>
        <thead><tr><th scope="col">Evaluator</th><th scope="col" class="num">Items</th><th scope="col" class="num">Agree</th><th scope="col" class="num">Rate</th>
          <th scope="col">Cohen's kappa</th><th scope="col">Confusion (judge \u00d7 reviewers)</th></tr></thead>
        <tbody>
          ${rows.map((row) => {
            const c = row.confusion ?? {};
            return html`
              <tr data-testid="agreement-evaluator">
                <td>${row.evaluatorName}</td>
                <td class="num">${integer(row.items)}</td>
                <td class="num">${integer(row.agreements)}</td>
                <td class="num">${percent(row.agreementRate)}</td>
                <td><${Kappa} value=${row.cohensKappa} note=${row.kappaNote} /></td>
                <td><${Confusion} caption=${`${row.evaluatorName}: judge verdicts by row, reviewers' by column`} testId="confusion"
                  rows=${['judge pass', 'judge fail']} columns=${['correct', 'incorrect']}
                  cells=${[[c.judgePassHumanCorrect, c.judgePassHumanIncorrect], [c.judgeFailHumanCorrect, c.judgeFailHumanIncorrect]]} /></td>
              </tr>`;
          })}
        </tbody>
      </table>
    </div>`;
}

function ReviewerAgreement({ rows }) {
  const names = useKeyNames();
  return html`
    <div class="table-scroll">
      <table class="data" data-testid="agreement-reviewers">
        <caption>Reviewer and reviewer</caption>
        <thead><tr><th scope="col">Reviewers</th><th scope="col" class="num">Items</th><th scope="col" class="num">Agree</th><th scope="col" class="num">Rate</th>
          <th scope="col">Cohen's kappa</th><th scope="col">Confusion (first \u00d7 second)</th></tr></thead>
        <tbody>
          ${rows.map((row) => {
            const c = row.confusion ?? {};
            const [first, second] = row.principals ?? [];
            return html`
              <tr data-testid="agreement-reviewer">
                <td><${Reviewer} principal=${first} names=${names} /><br />and <${Reviewer} principal=${second} names=${names} /></td>
                <td class="num">${integer(row.items)}</td>
                <td class="num">${integer(row.agreements)}</td>
                <td class="num">${percent(row.agreementRate)}</td>
                <td><${Kappa} value=${row.cohensKappa} note=${row.kappaNote} /></td>
                <td><${Confusion} caption="The first reviewer's verdicts by row, the second's by column" testId="confusion"
                  rows=${['correct', 'incorrect']} columns=${['correct', 'incorrect']}
                  cells=${[[c.bothCorrect, c.firstCorrectSecondIncorrect], [c.firstIncorrectSecondCorrect, c.bothIncorrect]]} /></td>
              </tr>`;
          })}
        </tbody>
      </table>
    </div>`;
}

export function RunAgreement({ runId }) {
  const { data, error } = useApi(`/runs/${runId}/agreement`);
  if (error) return html`<${ErrorNote} error=${error} what="Agreement" />`;
  if (!data || !(data.annotatedItems > 0)) return null;
  const evaluators = data.evaluators ?? [];
  const reviewers = data.reviewers ?? [];
  return html`
    <section aria-labelledby="agreement-heading" data-testid="agreement">
      <h2 id="agreement-heading">Agreement</h2>
      <p class="muted" data-testid="agreement-summary">${integer(data.annotatedItems)} annotated items, ${integer(data.unsureItems)} of them last judged unsure (left out).
        The judge agrees with a reviewer when it passed a correct item or failed an incorrect one.</p>
      ${evaluators.length > 0 && html`<${EvaluatorAgreement} rows=${evaluators} />`}
      ${reviewers.length > 0 ? html`<${ReviewerAgreement} rows=${reviewers} />` : html`<p class="muted">No item was judged by two reviewers.</p>`}
    </section>`;
}

export function RunJudgeJobs({ runId }) {
  const { data, error } = useApi(`/runs/${runId}/judge-jobs`);
  // A viewer's key may not see judge jobs; the run page stays as it is.
  if (error?.status === 403 || error?.status === 404) return null;
  if (error) return html`<${ErrorNote} error=${error} what="Judge jobs" />`;
  const jobs = Array.isArray(data) ? data : data?.content ?? [];
  if (jobs.length === 0) return null;
  return html`
    <section aria-labelledby="judge-jobs-heading">
      <h2 id="judge-jobs-heading">Judge jobs</h2>
      <table class="data compact" data-testid="judge-jobs">
        <caption class="sr-only">The run's server judge jobs, oldest first</caption>
        <thead><tr><th scope="col">Evaluator</th><th scope="col">Status</th><th scope="col" class="num">Items</th><th scope="col" class="num">Scored</th>
          <th scope="col" class="num">Errors</th><th scope="col">Created</th></tr></thead>
        <tbody>${jobs.map((job) => html`
          <tr><td>${job.evaluatorName}</td><td><${Badge} status=${job.status} /></td><td class="num">${integer(job.itemsTotal)}</td>
            <td class="num">${integer(job.itemsScored)}</td><td class="num">${integer(job.itemsFailed)}</td><td class="nowrap">${when(job.createdAt)}</td></tr>`)}</tbody>
      </table>
    </section>`;
}
