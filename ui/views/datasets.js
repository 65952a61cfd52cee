// Server datasets: the list, one dataset's versions, a version's items (the server's keyset pages,
// rows that open to show inputs, expected outputs and metadata), and what one version changes
// against another (the server's diff, the same `krino dataset diff` prints).
import { html, useState } from '../lib/preact.js';
import { navigate, setQuery } from '../lib/router.js';
import { integer, preview, when } from '../lib/format.js';
import { queryString } from '../lib/api.js';
import { Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { useApi } from '../components/use_api.js';
import { Section } from './run.js';

const PAGE_SIZE = 25;
const DIFF_LIST = 200;  // entries of each diff list shown; the counts are whole

const datasetHref = (name) => `/datasets/${encodeURIComponent(name)}`;
const versionHref = (name, version) => `${datasetHref(name)}/versions/${version}`;
const crumbs = (name) => [{ label: 'Datasets', href: '/datasets' }, ...(name ? [{ label: name, href: datasetHref(name) }] : [])];

export function DatasetsView() {
  const { data, error, loading } = useApi('/datasets');
  return html`
    <${PageHeader} title="Datasets" crumbs=${[{ label: 'Dashboard', href: '/' }]}>
      <p class="subtitle">Named lists of examples in numbered versions that never change; runs read them as <code>dataset://name@N</code>.</p>
    </${PageHeader}>
    ${loading && !data && html`<${Loading} what="Loading datasets" />`}
    <${ErrorNote} error=${error} what="Datasets" />
    ${data && data.length === 0 && html`<${Empty}>No datasets yet: push one with <code>krino dataset push</code>.</${Empty}>`}
    ${data && data.length > 0 && html`
      <table class="data" data-testid="datasets">
        <caption class="sr-only">Datasets</caption>
        <thead><tr><th scope="col">Dataset</th><th scope="col" class="num">Latest version</th><th scope="col" class="num">Items</th><th scope="col">Description</th><th scope="col">Created</th></tr></thead>
        <tbody>
          ${data.map((dataset) => html`
            <tr>
              <td><a href=${datasetHref(dataset.name)}>${dataset.name}</a></td>
              <td class="num">${dataset.latestVersion == null ? '\u2014' : html`<a href=${versionHref(dataset.name, dataset.latestVersion)}>${dataset.latestVersion}</a>`}</td>
              <td class="num">${integer(dataset.itemCount)}</td>
              <td class="reason">${dataset.description ?? ''}</td>
              <td class="nowrap">${when(dataset.createdAt)}</td>
            </tr>`)}
        </tbody>
      </table>`}`;
}

// Two versions to compare, newest against the one before it unless chosen.
function DiffPicker({ name, versions }) {
  const [from, setFrom] = useState(String(versions[1]?.version ?? versions[0]?.version ?? ''));
  const [to, setTo] = useState(String(versions[0]?.version ?? ''));
  if (versions.length < 2) return html`<p class="muted">A second version can be compared with the first once it is written.</p>`;
  const submit = (event) => {
    event.preventDefault();
    navigate(`${datasetHref(name)}/diff${queryString({ from, to })}`);
  };
  const options = versions.map((v) => html`<option value=${String(v.version)}>${v.version}</option>`);
  return html`
    <form class="inline" onSubmit=${submit} aria-label="Compare two versions" data-testid="diff-picker">
      <div class="field"><label for="diff-from">From version</label><select id="diff-from" value=${from} onChange=${(e) => setFrom(e.target.value)}>${options}</select></div>
      <div class="field"><label for="diff-to">To version</label><select id="diff-to" value=${to} onChange=${(e) => setTo(e.target.value)}>${options}</select></div>
      <button type="submit">Compare</button>
    </form>`;
}

export function DatasetView({ params }) {
  const name = params.name;
  const { data, error, loading } = useApi(`/datasets/${encodeURIComponent(name)}`);
  const versions = data?.versions ?? [];
  return html`
    <${PageHeader} title=${`Dataset ${name}`} crumbs=${crumbs(null)}>
      ${data?.description && html`<p class="subtitle">${data.description}</p>`}
    </${PageHeader}>
    ${loading && !data && html`<${Loading} />`}
    <${ErrorNote} error=${error} what="Dataset" />
    ${data && html`
      <section aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        ${versions.length === 0 ? html`<${Empty}>No version yet.</${Empty}>` : html`
          <table class="data" data-testid="versions">
            <caption class="sr-only">Versions, newest first</caption>
            <thead><tr><th scope="col" class="num">Version</th><th scope="col" class="num">Items</th><th scope="col">Description</th><th scope="col">Created</th><th scope="col">Compare</th></tr></thead>
            <tbody>
              ${versions.map((version, i) => html`
                <tr>
                  <td class="num"><a href=${versionHref(name, version.version)}>${version.version}</a></td>
                  <td class="num">${integer(version.itemCount)}</td>
                  <td class="reason">${version.description ?? ''}</td>
                  <td class="nowrap">${when(version.createdAt)}</td>
                  <td>${versions[i + 1] && html`<a href=${`${datasetHref(name)}/diff${queryString({ from: versions[i + 1].version, to: version.version })}`}
                    aria-label=${`Changes of version ${version.version} against ${versions[i + 1].version}`}>against ${versions[i + 1].version}</a>`}</td>
                </tr>`)}
            </tbody>
          </table>`}
      </section>
      <section aria-labelledby="compare-heading">
        <h2 id="compare-heading">Compare versions</h2>
        <${DiffPicker} name=${name} versions=${versions} />
      </section>`}`;
}

function DatasetItemRow({ item, columns }) {
  const [open, setOpen] = useState(false);
  const detailId = `dataset-item-${item.ordinal}`;
  return html`
    <tr class=${open ? 'open' : ''} data-testid="dataset-item-row">
      <td><button type="button" class="expand" aria-expanded=${open} aria-controls=${detailId} onClick=${() => setOpen(!open)}
        aria-label=${`${open ? 'Hide' : 'Show'} item ${item.id}`}>${open ? '\u25be' : '\u25b8'}</button></td>
      <td class="num">${item.ordinal}</td>
      <td>${item.id}</td>
      <td class="input-preview">${preview(item.inputs)}</td>
      <td class="input-preview">${preview(item.expectedOutputs)}</td>
    </tr>
    ${open && html`
      <tr class="detail-row" id=${detailId}><td colspan=${columns}>
        <div class="item-detail detail-grid" data-testid="dataset-item-detail">
          <${Section} title="Inputs" value=${item.inputs} />
          <${Section} title="Expected outputs" value=${item.expectedOutputs} />
          <${Section} title="Metadata" value=${item.metadata} />
        </div>
      </td></tr>`}`;
}

export function DatasetVersionView({ params, query }) {
  const name = params.name;
  const page = Number(query.get('page') ?? 0) || 0;
  const path = `/datasets/${encodeURIComponent(name)}/versions/${encodeURIComponent(params.version)}/items${queryString({ page, size: PAGE_SIZE })}`;
  const { data, error, loading } = useApi(path);
  const total = data?.totalElements ?? 0;
  const first = page * PAGE_SIZE;
  return html`
    <${PageHeader} title=${`${name} version ${data?.version ?? params.version}`} crumbs=${crumbs(name)}>
      ${data && html`<p class="subtitle" data-testid="version-count">${integer(total)} items${total > 0 ? ` \u00b7 showing ${integer(first + 1)}\u2013${integer(Math.min(total, first + PAGE_SIZE))}` : ''}</p>`}
    </${PageHeader}>
    ${loading && !data && html`<${Loading} what="Loading items" />`}
    <${ErrorNote} error=${error} what="Items" />
    ${data && data.content.length === 0 && html`<${Empty}>This page has no items.</${Empty}>`}
    ${data && data.content.length > 0 && html`
      <div class="table-scroll">
        <table class="data items" data-testid="dataset-items">
          <caption class="sr-only">Items of the version</caption>
          <thead><tr><th scope="col"><span class="sr-only">Expand</span></th><th scope="col" class="num">#</th><th scope="col">Dataset item id</th><th scope="col">Inputs</th><th scope="col">Expected outputs</th></tr></thead>
          <tbody>${data.content.map((item) => html`<${DatasetItemRow} key=${`${data.version}:${item.ordinal}`} item=${item} columns=${5} />`)}</tbody>
        </table>
      </div>`}
    <div class="pager">
      <button type="button" disabled=${page === 0} onClick=${() => setQuery({ page: null })}>First page</button>
      <button type="button" disabled=${page === 0} onClick=${() => setQuery({ page: page - 1 || null })}>Previous</button>
      <button type="button" disabled=${!data || data.last !== false} onClick=${() => setQuery({ page: page + 1 })}>Next</button>
    </div>`;
}

function DiffTable({ caption, testId, rows, head, cells, count }) {
  return html`
    <section aria-label=${caption}>
      <h2>${caption} <span class="muted">(${integer(count)})</span></h2>
      ${rows.length === 0 ? html`<${Empty}>None.</${Empty}>` : html`
        <div class="table-scroll">
          <table class="data compact" data-testid=${testId}>
            <caption class="sr-only">${caption}</caption>
            <thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
            <tbody>${rows.map((row) => html`<tr>${cells(row).map((cell) => html`<td class="input-preview">${cell}</td>`)}</tr>`)}</tbody>
          </table>
        </div>`}
      ${rows.length < count && html`<p class="muted">The first ${integer(rows.length)} of ${integer(count)}; <code>krino dataset diff</code> lists them all.</p>`}
    </section>`;
}

export function DatasetDiffView({ params, query }) {
  const name = params.name;
  const from = query.get('from') ?? '';
  const to = query.get('to') ?? '';
  const { data, error, loading } = useApi(from && to ? `/datasets/${encodeURIComponent(name)}/diff${queryString({ from, to, limit: DIFF_LIST })}` : null);
  const json = (value) => preview(value, 120);
  return html`
    <${PageHeader} title=${`${name}: version ${from} \u2192 ${to}`} crumbs=${crumbs(name)}>
      <p class="subtitle">By dataset item id: items the newer version adds, removes, and whose expected outputs it changes.</p>
    </${PageHeader}>
    ${(!from || !to) && html`<${Empty}>Choose two versions on the <a href=${datasetHref(name)}>dataset's page</a>.</${Empty}>`}
    ${loading && html`<${Loading} what="Comparing" />`}
    <${ErrorNote} error=${error} what="Diff" />
    ${data && html`
      <div class="cards">
        <div class="card" data-testid="diff-added"><div class="card-label">Added</div><div class="card-value">${integer(data.addedCount)}</div></div>
        <div class="card" data-testid="diff-removed"><div class="card-label">Removed</div><div class="card-value">${integer(data.removedCount)}</div></div>
        <div class="card" data-testid="diff-changed"><div class="card-label">Expected output changed</div><div class="card-value">${integer(data.changedCount)}</div>
          ${data.inputsChanged > 0 && html`<div class="card-detail">${integer(data.inputsChanged)} kept their id with new inputs</div>`}</div>
      </div>
      <${DiffTable} caption="Changed expected outputs" testId="diff-changed-items" rows=${data.changed} count=${data.changedCount}
        head=${['Dataset item id', 'Inputs', 'Before', 'After']} cells=${(row) => [row.id, json(row.inputs), json(row.before), json(row.after)]} />
      <${DiffTable} caption="Added" testId="diff-added-items" rows=${data.added} count=${data.addedCount}
        head=${['Dataset item id', 'Inputs', 'Expected outputs']} cells=${(row) => [row.id, json(row.inputs), json(row.expectedOutputs)]} />
      <${DiffTable} caption="Removed" testId="diff-removed-items" rows=${data.removed} count=${data.removedCount}
        head=${['Dataset item id', 'Inputs', 'Expected outputs']} cells=${(row) => [row.id, json(row.inputs), json(row.expectedOutputs)]} />`}`;
}
