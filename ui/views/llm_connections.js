// LLM connections (docs/server.md "LLM connections"): the model endpoints the server judge calls.
// An EDITOR or ADMIN key lists, creates, edits and deletes them. The credential is shown as what it
// is (an environment variable's name, or "inline key set"), never as a key: the server never sends one.
import { api } from '../lib/api.js';
import { html, useEffect, useRef, useState } from '../lib/preact.js';
import { integer, when } from '../lib/format.js';
import { Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { useApi } from '../components/use_api.js';

const PROVIDERS = [
  ['openai', 'OpenAI Chat Completions'],
  ['openai_responses', 'OpenAI Responses'],
  ['anthropic', 'Anthropic Messages'],
];
const LIMITS = [
  ['maxConcurrency', 'Calls in flight', '8 when empty'],
  ['timeoutMs', 'Timeout per attempt (ms)', '60000 when empty'],
  ['maxRetries', 'Retries', '2 when empty'],
  ['requestsPerMinute', 'Requests per minute', 'none when empty'],
];

export function credentialText(connection) {
  if (connection.credential === 'ENVIRONMENT' || connection.credentialRef) return `environment variable ${connection.credentialRef}`;
  if (connection.credential === 'INLINE' || connection.hasApiKey) return 'inline key set';
  return 'none';
}

// "4 in flight, 60,000 ms timeout, 2 retries, 30 a minute": one cell, so the table fits a window.
function limitsText(connection) {
  const parts = [`${integer(connection.maxConcurrency)} in flight`, `${integer(connection.timeoutMs)} ms timeout`, `${integer(connection.maxRetries)} retries`];
  if (connection.requestsPerMinute != null) parts.push(`${integer(connection.requestsPerMinute)} a minute`);
  return parts.join(', ');
}

const blank = { name: '', baseUrl: '', model: '', provider: 'openai', credentialKind: 'ENVIRONMENT', credentialRef: '', apiKey: '',
  maxConcurrency: '', timeoutMs: '', maxRetries: '', requestsPerMinute: '' };

function formOf(connection) {
  if (!connection) return { ...blank };
  const form = { ...blank, name: connection.name, baseUrl: connection.baseUrl, model: connection.model, provider: connection.provider ?? 'openai',
    credentialKind: connection.credential === 'INLINE' ? 'INLINE' : 'ENVIRONMENT', credentialRef: connection.credentialRef ?? '' };
  for (const [key] of LIMITS) form[key] = connection[key] == null ? '' : String(connection[key]);
  return form;
}

// The request body: empty limits are left to the server's defaults; on an edit, an empty inline key
// keeps the stored one (the server keeps the credential when the body has none).
function bodyOf(form, editing) {
  const body = { name: form.name.trim(), baseUrl: form.baseUrl.trim(), model: form.model.trim(), provider: form.provider };
  if (form.credentialKind === 'ENVIRONMENT') body.credentialRef = form.credentialRef.trim();
  else if (form.apiKey !== '' || !editing) body.apiKey = form.apiKey;
  for (const [key] of LIMITS) if (form[key].trim() !== '') body[key] = Number(form[key]);
  return body;
}

function ConnectionForm({ editing, saved, cancel }) {
  const [form, setForm] = useState(() => formOf(editing));
  const [problem, setProblem] = useState(null);
  const [busy, setBusy] = useState(false);
  const first = useRef(null);
  useEffect(() => { setForm(formOf(editing)); setProblem(null); if (editing) first.current?.focus(); }, [editing?.id]);
  const set = (key) => (event) => setForm({ ...form, [key]: event.target.value });
  const submit = (event) => {
    event.preventDefault();
    setBusy(true);
    const request = editing
      ? api(`/llm-connections/${encodeURIComponent(editing.id)}`, { method: 'PUT', body: bodyOf(form, true) })
      : api('/llm-connections', { method: 'POST', body: bodyOf(form, false) });
    request.then((connection) => { setBusy(false); setProblem(null); setForm(formOf(null)); saved(connection, editing ? 'saved' : 'created'); },
      (error) => { setBusy(false); setProblem(error); });
  };
  const keptKey = editing && editing.credential === 'INLINE';
  return html`
    <form class="connection-form" onSubmit=${submit} aria-labelledby="connection-form-title" data-testid="connection-form">
      <h2 id="connection-form-title">${editing ? `Edit ${editing.name}` : 'New connection'}</h2>
      <div class="form-grid">
        <div class="field"><label for="conn-name">Name</label><input id="conn-name" ref=${first} required value=${form.name} onInput=${set('name')} /></div>
        <div class="field"><label for="conn-provider">Provider</label>
          <select id="conn-provider" value=${form.provider} onChange=${set('provider')}>${PROVIDERS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}</select></div>
        <div class="field wide"><label for="conn-base-url">Base URL <span class="hint">such as https://api.openai.com/v1</span></label><input id="conn-base-url" required value=${form.baseUrl} onInput=${set('baseUrl')} /></div>
        <div class="field"><label for="conn-model">Model</label><input id="conn-model" required value=${form.model} onInput=${set('model')} /></div>
      </div>
      <fieldset class="credential">
        <legend>Credential</legend>
        <label class="check"><input type="radio" name="credentialKind" value="ENVIRONMENT" checked=${form.credentialKind === 'ENVIRONMENT'} onChange=${set('credentialKind')} /> The server's environment variable</label>
        <label class="check"><input type="radio" name="credentialKind" value="INLINE" checked=${form.credentialKind === 'INLINE'} onChange=${set('credentialKind')} /> An inline key, stored encrypted</label>
        ${form.credentialKind === 'ENVIRONMENT'
          ? html`<div class="field"><label for="conn-credential-ref">Variable name <span class="hint">such as OPENAI_API_KEY</span></label><input id="conn-credential-ref" value=${form.credentialRef} onInput=${set('credentialRef')} /></div>`
          : html`<div class="field"><label for="conn-api-key">API key${keptKey ? ' (empty keeps the stored one)' : ''}</label>
              <input id="conn-api-key" type="password" autocomplete="off" value=${form.apiKey} onInput=${set('apiKey')} /></div>`}
      </fieldset>
      <div class="form-grid">
        ${LIMITS.map(([key, label, hint]) => html`<div class="field"><label for=${`conn-${key}`}>${label} <span class="hint">${hint}</span></label>
          <input id=${`conn-${key}`} inputmode="numeric" value=${form[key]} onInput=${set(key)} /></div>`)}
      </div>
      <${ErrorNote} error=${problem} what=${editing ? 'Not saved' : 'Not created'} />
      <div class="dialog-actions">
        <button type="submit" disabled=${busy}>${editing ? 'Save' : 'Create connection'}</button>
        ${editing && html`<button type="button" class="ghost" onClick=${cancel}>Cancel</button>`}
      </div>
    </form>`;
}

export function LlmConnectionsView() {
  const [version, setVersion] = useState(0);
  const { data, error, loading } = useApi('/llm-connections', version);
  const [editing, setEditing] = useState(null);
  const [notice, setNotice] = useState(null);
  const [problem, setProblem] = useState(null);
  const connections = Array.isArray(data) ? data : data?.content ?? [];
  const remove = (connection) => {
    if (!window.confirm(`Delete the connection ${connection.name}?`)) return;
    api(`/llm-connections/${encodeURIComponent(connection.id)}`, { method: 'DELETE' }).then(() => {
      setProblem(null);
      setNotice(`Deleted ${connection.name}.`);
      if (editing?.id === connection.id) setEditing(null);
      setVersion(version + 1);
    }, setProblem);
  };
  return html`
    <${PageHeader} title="LLM connections" crumbs=${[{ label: 'Dashboard', href: '/' }]}>
      <p class="subtitle">The models the server judge calls. Keys stay on the server: an environment variable's name, or an inline key stored encrypted.</p>
    </${PageHeader}>
    ${notice && html`<p class="notice" role="status" data-testid="connection-notice">${notice}</p>`}
    <${ErrorNote} error=${problem} />
    ${loading && !data && html`<${Loading} what="Loading connections" />`}
    <${ErrorNote} error=${error} what="Connections" />
    ${data && connections.length === 0 && html`<${Empty}>No connection yet.</${Empty}>`}
    ${connections.length > 0 && html`
      <div class="table-scroll">
        <table class="data" data-testid="connections">
          <caption class="sr-only">LLM connections, by name</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Provider</th><th scope="col">Model</th><th scope="col">Base URL</th><th scope="col">Credential</th>
            <th scope="col">Limits</th><th scope="col">Updated</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            ${connections.map((connection) => html`
              <tr data-testid="connection-row">
                <td>${connection.name}</td>
                <td>${connection.provider}</td>
                <td class="nowrap"><code>${connection.model}</code></td>
                <td class="url-cell">${connection.baseUrl}</td>
                <td data-testid="connection-credential">${credentialText(connection)}</td>
                <td class="limits" data-testid="connection-limits">${limitsText(connection)}</td>
                <td class="when">${when(connection.updatedAt ?? connection.createdAt)}</td>
                <td><div class="row-actions">
                  <button type="button" onClick=${() => { setNotice(null); setEditing(connection); }} aria-label=${`Edit ${connection.name}`}>Edit</button>
                  <button type="button" class="danger" onClick=${() => remove(connection)} aria-label=${`Delete ${connection.name}`}>Delete</button>
                </div></td>
              </tr>`)}
          </tbody>
        </table>
      </div>`}
    <${ConnectionForm} editing=${editing} cancel=${() => setEditing(null)}
      saved=${(connection, what) => { setNotice(`${what === 'saved' ? 'Saved' : 'Created'} ${connection.name}.`); setEditing(null); setVersion(version + 1); }} />`;
}
