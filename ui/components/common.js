// Small pieces every view uses: headings, status badges, cards, loading and error states.
import { html } from '../lib/preact.js';

export function PageHeader({ crumbs = [], title, children }) {
  return html`
    <header class="page-header">
      ${crumbs.length > 0 && html`
        <nav aria-label="Breadcrumb" class="crumbs">
          <ol>${crumbs.map((crumb) => html`<li><a href=${crumb.href}>${crumb.label}</a></li>`)}</ol>
        </nav>`}
      <h1>${title}</h1>
      ${children}
    </header>`;
}

const STATUS_CLASSES = {
  PASSED: 'good', PASS: 'good', ENABLED: 'good', ACTIVE: 'good', DISABLED: 'muted', SUCCESS: 'good', DELIVERED: 'good', IMPROVED: 'good',
  FAILED: 'bad', FAIL: 'bad', ERROR: 'bad', DEAD: 'bad', REGRESSED: 'bad', CANCELLED: 'warn',
  CORRECT: 'good', INCORRECT: 'bad', UNSURE: 'warn', OK: 'good', UNSET: 'muted', QUEUED: 'info', SUCCEEDED: 'good', EVALUATING: 'info',
  RUNNING: 'info', PENDING: 'info', INCONCLUSIVE: 'warn', NO_BASELINE: 'muted', UNCHANGED: 'muted',
};

export function Badge({ status }) {
  const text = status ?? '\u2014';
  return html`<span class=${`badge ${STATUS_CLASSES[text] ?? 'muted'}`}>${text}</span>`;
}

export function Card({ label, value, detail, testId }) {
  return html`
    <div class="card" data-testid=${testId}>
      <div class="card-label">${label}</div>
      <div class="card-value">${value}</div>
      ${detail && html`<div class="card-detail">${detail}</div>`}
    </div>`;
}

export function Loading({ what = 'Loading' }) {
  return html`<p class="loading" role="status">${what}\u2026</p>`;
}

export function ErrorNote({ error, what }) {
  if (!error) return null;
  const hint = error.status === 401 ? ' Enter an API key (top right) to see it.'
    : error.status === 403 ? ' Your key\u2019s role may not see this.' : '';
  const message = /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
  return html`<p class="error" role="alert">${what ? `${what}: ` : ''}${message}${hint}</p>`;
}

export function Empty({ children }) {
  return html`<p class="empty">${children}</p>`;
}
