// Reviewers' annotations of a run item (docs/server.md "Review and curation"): who judged it, the
// verdict, the note and the expected output they gave instead. Shared by the run page's expanded
// rows and the review queue.
import { api, apiKey } from '../lib/api.js';
import { html, useEffect, useState } from '../lib/preact.js';
import { jsonText, when } from '../lib/format.js';
import { Badge, Empty, ErrorNote, Loading } from './common.js';
import { useApi } from './use_api.js';

export const VERDICTS = ['CORRECT', 'INCORRECT', 'UNSURE'];

// Key names by key id, read once per page load when this tab's key may list keys (an ADMIN's);
// anyone else sees the ids.
let keyNames = null;
function loadKeyNames() {
  if (!apiKey()) return Promise.resolve(new Map());
  keyNames ??= api('/api-keys').then((list) => new Map((Array.isArray(list) ? list : list?.content ?? []).map((key) => [key.id, key.name])),
    () => new Map());
  return keyNames;
}

// The key names this tab may see, by key id (empty until they arrive, or for good without an ADMIN key).
export function useKeyNames() {
  const [names, setNames] = useState(new Map());
  useEffect(() => { loadKeyNames().then(setNames); }, []);
  return names;
}

export function Reviewer({ principal, names }) {
  const name = names.get(principal);
  if (!name) return html`<code>${principal}</code>`;
  // Key ids are UUIDv7: keys made the same minute share their first digits, so the last ones tell them apart.
  return html`${name} <code class="reviewer-id" title=${principal}>\u2026${principal.slice(-6)}</code>`;
}

// `principal` is the id of the key that wrote an annotation ("anonymous" without keys).
export function AnnotationTable({ annotations, caption, mine, testId = 'annotations' }) {
  const names = useKeyNames();
  if (annotations.length === 0) return null;
  return html`
    <table class="data compact" data-testid=${testId}>
      <caption>${caption}</caption>
      <thead><tr><th scope="col">Reviewer</th><th scope="col">Verdict</th><th scope="col">Note</th><th scope="col">Expected output instead</th><th scope="col">When</th></tr></thead>
      <tbody>
        ${annotations.map((annotation) => html`
          <tr>
            <td class="nowrap"><${Reviewer} principal=${annotation.principal} names=${names} />${mine && annotation.principal === mine ? ' (you)' : ''}</td>
            <td><${Badge} status=${annotation.verdict} /></td>
            <td class="reason">${annotation.note ?? ''}</td>
            <td>${annotation.overriddenExpectedOutput == null ? '' : html`<pre>${jsonText(annotation.overriddenExpectedOutput)}</pre>`}</td>
            <td class="nowrap">${when(annotation.updatedAt)}</td>
          </tr>`)}
      </tbody>
    </table>`;
}

// Every reviewer's annotation of one run item, loaded when the row opens.
export function ItemAnnotations({ runId, itemId }) {
  const { data, error, loading } = useApi(itemId ? `/runs/${runId}/items/${encodeURIComponent(itemId)}/annotations` : null);
  if (loading) return html`<${Loading} what="Loading annotations" />`;
  if (error) return html`<${ErrorNote} error=${error} what="Annotations" />`;
  if (!data || data.length === 0) return html`<${Empty}>No reviewer has annotated this item. <a href=${`/review?runId=${runId}`}>Review the run</a>.</${Empty}>`;
  return html`<${AnnotationTable} annotations=${data} caption="Annotations" />`;
}
