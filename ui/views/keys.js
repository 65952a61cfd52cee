// API keys (ADMIN): list, create (the key's text is shown once), disable, delete.
import { api, apiKey, setApiKey } from '../lib/api.js';
import { html, useState } from '../lib/preact.js';
import { when } from '../lib/format.js';
import { Badge, Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { useApi } from '../components/use_api.js';

export function KeysView() {
  const [version, setVersion] = useState(0);
  const { data, error, loading } = useApi("/api-keys", version);
  const [name, setName] = useState('');
  const [role, setRole] = useState('VIEWER');
  const [made, setMade] = useState(null);
  const [problem, setProblem] = useState(null);
  const act = (promise) => promise.then(() => { setProblem(null); setVersion(version + 1); }, setProblem);
  const create = (event) => {
    event.preventDefault();
    api('/api-keys', { method: 'POST', body: { name, role } }).then((key) => {
      // The first ADMIN key closes key management to callers without one: this tab keeps it, or
      // whoever made it could not see the list they just changed.
      if (!apiKey() && key.role === 'ADMIN') {
        setApiKey(key.key);
        key.adopted = true;
      }
      setMade(key);
      setName('');
      setProblem(null);
      setVersion(version + 1);
    }, setProblem);
  };
  const keys = Array.isArray(data) ? data : data?.content ?? [];
  return html`
    <${PageHeader} title="API keys" crumbs=${[{ label: 'Dashboard', href: '/' }]} />
    ${made && html`
      <div class="notice" role="status">
        <p>The key <strong>${made.name}</strong> (${made.role}). Copy it now: it is not shown again.${made.adopted ? ' This tab uses it from now on.' : ''}</p>
        <p><code class="secret" data-testid="new-key">${made.key}</code></p>
        <button type="button" onClick=${() => setMade(null)}>Done</button>
      </div>`}
    <form class="inline" onSubmit=${create}>
      <label>Name <input required value=${name} onInput=${(event) => setName(event.target.value)} /></label>
      <div class="field"><label for="key-role">Role</label>
        <select id="key-role" value=${role} onChange=${(event) => setRole(event.target.value)}>
          <option value="VIEWER">viewer</option><option value="EDITOR">editor</option><option value="ADMIN">admin</option>
        </select>
      </div>
      <button type="submit">Create key</button>
    </form>
    <${ErrorNote} error=${problem} />
    ${loading && !data && html`<${Loading} />`}
    <${ErrorNote} error=${error} what="Keys" />
    ${data && keys.length === 0 && html`<${Empty}>No keys: the server is open to everyone who can reach it.</${Empty}>`}
    ${keys.length > 0 && html`
      <table class="data" data-testid="keys">
        <caption class="sr-only">API keys</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">Tenant</th><th scope="col">Created</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
        <tbody>
          ${keys.map((key) => html`
            <tr>
              <td>${key.name}</td><td>${key.role}</td><td>${key.tenantId ?? ''}</td><td>${when(key.createdAt)}</td>
              <td>${key.disabledAt ? html`<${Badge} status="DISABLED" /> ${when(key.disabledAt)}` : html`<${Badge} status="ACTIVE" />`}</td>
              <td><div class="row-actions">
                ${!key.disabledAt && html`<button type="button" onClick=${() => act(api(`/api-keys/${key.id}/disable`, { method: 'POST' }))}>Disable</button>`}
                <button type="button" class="danger" onClick=${() => window.confirm(`Delete the key ${key.name}?`) && act(api(`/api-keys/${key.id}`, { method: 'DELETE' }))}>Delete</button>
              </div></td>
            </tr>`)}
        </tbody>
      </table>`}`;
}
