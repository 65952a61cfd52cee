// A project: its experiments, and its regression-alert webhooks with their delivery log. A
// webhook's secret is write-only: the page shows whether one is set, and can set or remove it.
import { api } from '../lib/api.js';
import { html, useState } from '../lib/preact.js';
import { integer, percent, when } from '../lib/format.js';
import { Badge, Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { useApi } from '../components/use_api.js';

function Deliveries({ projectId, webhookId }) {
  const [page, setPage] = useState(0);
  const [version, setVersion] = useState(0);
  const [problem, setProblem] = useState(null);
  const base = `/projects/${projectId}/alert-webhooks/${webhookId}/deliveries`;
  const { data, error, loading } = useApi(`${base}?page=${page}&size=20`, version);
  const retry = (delivery) => api(`${base}/${delivery.id}/retry`, { method: 'POST' }).then(() => { setProblem(null); setVersion(version + 1); }, setProblem);
  if (loading && !data) return html`<${Loading} what="Loading deliveries" />`;
  if (error) return html`<${ErrorNote} error=${error} what="Deliveries" />`;
  const deliveries = data?.content ?? [];
  if (deliveries.length === 0) return html`<${Empty}>No alerts sent yet.</${Empty}>`;
  return html`
    <table class="data compact">
      <caption class="sr-only">Delivery log</caption>
      <thead><tr><th scope="col">Queued</th><th scope="col">Status</th><th scope="col" class="num">Attempts</th><th scope="col">Last answer</th><th scope="col">Run</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>
        ${deliveries.map((delivery) => html`
          <tr>
            <td>${when(delivery.createdAt)}</td>
            <td><${Badge} status=${delivery.status} /></td>
            <td class="num">${integer(delivery.attempts)}</td>
            <td>${delivery.lastStatusCode ?? ''} ${delivery.lastError ?? ''}</td>
            <td><a href=${`/runs/${encodeURIComponent(delivery.runId)}`}>run</a></td>
            <td>${delivery.status === 'DEAD' && html`<button type="button" onClick=${() => retry(delivery)}>Send again</button>`}</td>
          </tr>`)}
      </tbody>
    </table>
    <${ErrorNote} error=${problem} />
    <div class="pager">
      <button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>Newer</button>
      <button type="button" disabled=${data.last} onClick=${() => setPage(page + 1)}>Older</button>
    </div>`;
}

function Webhook({ projectId, webhook, changed }) {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState('');
  const [problem, setProblem] = useState(null);
  const put = (body) => api(`/projects/${projectId}/alert-webhooks/${webhook.id}`, { method: 'PUT', body: { url: webhook.url, enabled: webhook.enabled, ...body } })
    .then(() => { setSecret(''); setProblem(null); changed(); }, setProblem);
  return html`
    <li class="webhook">
      <div class="webhook-head">
        <span class="url">${webhook.url}</span>
        <${Badge} status=${webhook.enabled ? 'ENABLED' : 'DISABLED'} />
        <span class="muted" data-testid="secret-state">secret ${webhook.hasSecret ? 'set' : 'not set'}</span>
      </div>
      <form class="inline" onSubmit=${(event) => { event.preventDefault(); if (secret) put({ secret }); }}>
        <label>New secret <input type="password" autocomplete="off" value=${secret} onInput=${(event) => setSecret(event.target.value)} /></label>
        <button type="submit" disabled=${!secret}>Set secret</button>
        ${webhook.hasSecret && html`<button type="button" onClick=${() => put({ secret: null })}>Remove secret</button>`}
        <button type="button" onClick=${() => put({ enabled: !webhook.enabled })}>${webhook.enabled ? 'Disable' : 'Enable'}</button>
      </form>
      <${ErrorNote} error=${problem} />
      <button type="button" class="link" aria-expanded=${open} onClick=${() => setOpen(!open)}>${open ? 'Hide' : 'Show'} delivery log</button>
      ${open && html`<${Deliveries} projectId=${projectId} webhookId=${webhook.id} />`}
    </li>`;
}

function Webhooks({ project }) {
  const [version, setVersion] = useState(0);
  const { data, error, loading } = useApi(`/projects/${project.id}/alert-webhooks`, version);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [problem, setProblem] = useState(null);
  const add = (event) => {
    event.preventDefault();
    api(`/projects/${project.id}/alert-webhooks`, { method: 'POST', body: secret ? { url, secret } : { url } })
      .then(() => { setUrl(''); setSecret(''); setProblem(null); setVersion(version + 1); }, setProblem);
  };
  return html`
    ${loading && !data && html`<${Loading} what="Loading webhooks" />`}
    <${ErrorNote} error=${error} what="Webhooks" />
    ${data && data.length === 0 && html`<${Empty}>No webhooks: regressions of this project alert no one.</${Empty}>`}
    ${data && data.length > 0 && html`<ul class="webhooks">${data.map((webhook) => html`<${Webhook} key=${webhook.id} projectId=${project.id} webhook=${webhook} changed=${() => setVersion(version + 1)} />`)}</ul>`}
    <h3>Add a webhook</h3>
    <form class="inline" onSubmit=${add}>
      <label>Webhook URL <input type="url" required value=${url} onInput=${(event) => setUrl(event.target.value)} /></label>
      <label>Secret (optional) <input type="password" autocomplete="off" value=${secret} onInput=${(event) => setSecret(event.target.value)} /></label>
      <button type="submit">Add webhook</button>
    </form>
    <${ErrorNote} error=${problem} />`;
}

export function ProjectView({ params }) {
  const name = params.projectName;
  const { data: experiments, error, loading } = useApi(`/projects/${encodeURIComponent(name)}/experiments`);
  const { data: projects } = useApi('/projects');
  const project = projects?.find((p) => p.name === name);
  return html`
    <${PageHeader} title=${name} crumbs=${[{ label: 'Dashboard', href: '/' }]} />
    <section aria-labelledby="experiments-heading">
      <h2 id="experiments-heading">Experiments</h2>
      ${loading && html`<${Loading} />`}
      <${ErrorNote} error=${error} what="Experiments" />
      ${experiments && experiments.length === 0 && html`<${Empty}>No experiments.</${Empty}>`}
      ${experiments && experiments.length > 0 && html`
        <table class="data" data-testid="experiments">
          <caption class="sr-only">Experiments of ${name}</caption>
          <thead><tr><th scope="col">Experiment</th><th scope="col">Latest run</th><th scope="col" class="num">Latest pass rate</th><th scope="col" class="num">Best pass rate</th><th scope="col">Started</th></tr></thead>
          <tbody>
            ${experiments.map((experiment) => html`
              <tr>
                <td><a href=${`/experiments/${encodeURIComponent(experiment.id)}`}>${experiment.name}</a></td>
                <td>${experiment.latestRun ? html`<${Badge} status=${experiment.latestRun.status} />` : '\u2014'}</td>
                <td class="num">${percent(experiment.latestRun?.passRate)}</td>
                <td class="num">${percent(experiment.bestPassRate)}</td>
                <td>${when(experiment.latestRun?.startedAt)}</td>
              </tr>`)}
          </tbody>
        </table>`}
    </section>
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Regression alerts</h2>
      ${project ? html`<${Webhooks} project=${project} />` : html`<${Loading} />`}
    </section>`;
}
