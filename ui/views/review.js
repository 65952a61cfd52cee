// The review queue: run items no reviewer has judged yet (or last judged UNSURE), oldest first,
// filtered by project, experiment and run (in the URL). One item at a time with its input, output,
// expected output and evaluator results; judged from the keyboard (c, i, u, e, n, j, k, x, ?), with
// the other reviewers' annotations beside it. Judged items can be promoted into the next version of a
// dataset.
import { api, queryString } from '../lib/api.js';
import { html, useEffect, useRef, useState } from '../lib/preact.js';
import { setQuery } from '../lib/router.js';
import { integer, jsonText, percent, preview, when } from '../lib/format.js';
import { Badge, Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { AnnotationTable } from '../components/annotations.js';
import { useApi } from '../components/use_api.js';
import { ItemDetail } from './run.js';

const PAGE_SIZE = 25;

export const REVIEW_KEYS = [
  ['c', 'Correct: the output is right'],
  ['i', 'Incorrect: the output is wrong'],
  ['u', 'Unsure: leave it in the queue'],
  ['e', 'Edit the expected output (the right answer, as JSON or text)'],
  ['n', 'Write a note'],
  ['x', 'Select or unselect the item for promotion'],
  ['j / \u2193', 'Next item'],
  ['k / \u2191', 'Previous item'],
  ['?', 'Show or hide these keys'],
  ['Esc', 'Close an editor or this help'],
];

const itemPath = (entry) => `/runs/${encodeURIComponent(entry.runId)}/items/${encodeURIComponent(entry.itemResultId)}`;

// A typed key, unless the person is typing into a field or holding a modifier.
function isTyping(event) {
  const target = event.target;
  return event.ctrlKey || event.metaKey || event.altKey || target.closest?.('input, textarea, select, [contenteditable]');
}

function HelpOverlay({ close }) {
  const button = useRef(null);
  useEffect(() => button.current?.focus(), []);
  return html`
    <div class="overlay" onClick=${(event) => { if (event.target === event.currentTarget) close(); }}>
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="review-help-title" data-testid="review-help">
        <h2 id="review-help-title">Keyboard</h2>
        <table class="data compact keys">
          <caption class="sr-only">Keys of the review queue</caption>
          <tbody>${REVIEW_KEYS.map(([key, what]) => html`<tr><th scope="row"><kbd>${key}</kbd></th><td>${what}</td></tr>`)}</tbody>
        </table>
        <div class="dialog-actions"><button type="button" ref=${button} onClick=${close}>Close</button></div>
      </div>
    </div>`;
}

// A text editor for the note or the expected output; Ctrl+Enter or the button saves, Escape cancels.
function Editor({ kind, initial, save, cancel }) {
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState(null);
  const area = useRef(null);
  useEffect(() => area.current?.focus(), []);
  const submit = (event) => {
    event?.preventDefault();
    if (kind === 'expected') {
      let value = text;
      try { value = JSON.parse(text); } catch { value = text.trim(); }  // plain text is the answer itself
      if (value === '') { setProblem('Write the expected output, or press Escape.'); return; }
      save(value);
    } else {
      save(text);
    }
  };
  const label = kind === 'expected' ? 'Expected output instead (JSON, or plain text)' : 'Note';
  return html`
    <form class="editor" onSubmit=${submit} data-testid=${`editor-${kind}`}
      onKeyDown=${(event) => {
        if (event.key === 'Escape') { event.preventDefault(); cancel(); }
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
      }}>
      <label for=${`editor-${kind}-text`}>${label}</label>
      <textarea id=${`editor-${kind}-text`} ref=${area} rows=${kind === 'expected' ? 5 : 3} value=${text} onInput=${(event) => setText(event.target.value)} />
      ${problem && html`<p class="error" role="alert">${problem}</p>`}
      <div class="dialog-actions"><button type="submit">Save (Ctrl+Enter)</button><button type="button" class="ghost" onClick=${cancel}>Cancel (Esc)</button></div>
    </form>`;
}

// The current item: what the model saw, said and should have said; my annotation and everyone's.
function CurrentItem({ entry, mine, everyone, editing, setEditing, annotate, problem }) {
  const others = everyone.filter((annotation) => !mine || annotation.principal !== mine.principal);
  return html`
    <article class="review-item" aria-labelledby="current-title" data-testid="review-current">
      <h2 id="current-title">Item ${entry.index}${entry.datasetItemId ? ` \u00b7 ${entry.datasetItemId}` : ''}
        <span class="muted"> of run <a href=${`/runs/${encodeURIComponent(entry.runId)}`}>${entry.runId.slice(0, 8)}</a> \u00b7 ${entry.projectName}</span></h2>
      <${ItemDetail} item=${entry} />
      <section aria-labelledby="verdict-heading" class="verdict-panel">
        <h3 id="verdict-heading">Your verdict</h3>
        <div class="verdict-buttons" role="group" aria-label="Verdict">
          ${[['CORRECT', 'c'], ['INCORRECT', 'i'], ['UNSURE', 'u']].map(([verdict, key]) => html`
            <button type="button" aria-pressed=${mine?.verdict === verdict} class=${mine?.verdict === verdict ? 'chosen' : ''}
              onClick=${() => annotate({ verdict })} aria-keyshortcuts=${key}><kbd>${key}</kbd> ${verdict.toLowerCase()}</button>`)}
          <button type="button" class="ghost" onClick=${() => setEditing('expected')} aria-keyshortcuts="e"><kbd>e</kbd> expected output</button>
          <button type="button" class="ghost" onClick=${() => setEditing('note')} aria-keyshortcuts="n"><kbd>n</kbd> note</button>
        </div>
        <${ErrorNote} error=${problem} what="Saving" />
        ${editing && html`<${Editor} kind=${editing}
          initial=${editing === 'note' ? mine?.note ?? '' : jsonText(mine?.overriddenExpectedOutput ?? entry.expectedOutputs ?? {})}
          cancel=${() => setEditing(null)}
          save=${(value) => annotate(editing === 'note' ? { note: value } : { overriddenExpectedOutput: value })} />`}
        ${mine ? html`<${AnnotationTable} annotations=${[mine]} caption="Your annotation" testId="my-annotation" />`
          : html`<p class="muted" data-testid="my-annotation">Not judged by you yet.</p>`}
        ${others.length > 0 ? html`<${AnnotationTable} annotations=${others} caption="Other reviewers" testId="other-annotations" />`
          : html`<p class="muted">No other reviewer has judged it.</p>`}
      </section>
    </article>`;
}

// Promotion: the selected judged items become the next version of a dataset (the server takes each
// item's inputs and the latest reviewer's expected output, or the run's own).
function Promote({ selected, clear }) {
  const datasets = useApi('/datasets');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [made, setMade] = useState(null);
  const [problem, setProblem] = useState(null);
  const choices = datasets.data ?? [];
  const chosen = name || choices[0]?.name || '';
  const submit = (event) => {
    event.preventDefault();
    api('/datasets/promote', { method: 'POST', body: { datasetName: chosen, description: description || undefined, items: selected.map((id) => ({ itemResultId: id })) } })
      .then((version) => { setMade(version); setProblem(null); clear(); }, setProblem);
  };
  return html`
    <section aria-labelledby="promote-heading" class="promote">
      <h2 id="promote-heading">Promote into a dataset</h2>
      ${choices.length === 0 && !datasets.loading ? html`<${Empty}>No dataset to promote into: create one first (<code>krino dataset push</code>).</${Empty}>` : html`
        <form class="inline" onSubmit=${submit} data-testid="promote-form">
          <div class="field"><label for="promote-dataset">Dataset</label>
            <select id="promote-dataset" value=${chosen} onChange=${(event) => setName(event.target.value)}>
              ${choices.map((dataset) => html`<option value=${dataset.name}>${dataset.name} (v${dataset.latestVersion ?? 0})</option>`)}
            </select></div>
          <div class="field"><label for="promote-description">Version description</label>
            <input id="promote-description" value=${description} onInput=${(event) => setDescription(event.target.value)} placeholder="what these items fix" /></div>
          <button type="submit" disabled=${selected.length === 0}>Promote ${integer(selected.length)} selected</button>
        </form>`}
      <${ErrorNote} error=${problem} what="Promotion" />
      ${made && html`<p class="notice" role="status" data-testid="promoted">Wrote <a href=${`/datasets/${encodeURIComponent(made.datasetName)}/versions/${made.version}`}>${made.datasetName} version ${made.version}</a> with ${integer(made.itemCount)} items.</p>`}
    </section>`;
}

function Filters({ projectName, experimentId, runId }) {
  // A queue opened from a run (?runId= only) shows the run's project and experiment in the lists.
  const runInfo = useApi(runId && !experimentId ? `/runs/${encodeURIComponent(runId)}?page=0&size=1` : null);
  const shownProject = projectName || runInfo.data?.projectName || '';
  const shownExperiment = experimentId || runInfo.data?.experimentId || '';
  const projects = useApi('/projects');
  const experiments = useApi(shownProject ? `/projects/${encodeURIComponent(shownProject)}/experiments` : null);
  const runs = useApi(shownExperiment ? `/experiments/${encodeURIComponent(shownExperiment)}/runs?limit=100` : null);
  const list = (state) => (Array.isArray(state.data) ? state.data : state.data?.content ?? []);
  const runChoices = list(runs);
  return html`
    <form class="filters" aria-label="Filter the queue" onSubmit=${(event) => event.preventDefault()}>
      <div class="field"><label for="review-project">Project</label>
        <select id="review-project" value=${shownProject} onChange=${(event) => setQuery({ projectName: event.target.value, experimentId: null, runId: null, after: null })}>
          <option value="">any</option>
          ${list(projects).map((project) => html`<option value=${project.name}>${project.name}</option>`)}
        </select></div>
      <div class="field"><label for="review-experiment">Experiment</label>
        <select id="review-experiment" value=${shownExperiment} disabled=${!shownProject} onChange=${(event) => setQuery({ projectName: shownProject, experimentId: event.target.value, runId: null, after: null })}>
          <option value="">any</option>
          ${list(experiments).map((experiment) => html`<option value=${experiment.id}>${experiment.name}</option>`)}
        </select></div>
      <div class="field"><label for="review-run">Run</label>
        <select id="review-run" value=${runId} onChange=${(event) => setQuery({ projectName: shownProject, experimentId: shownExperiment, runId: event.target.value, after: null })}>
          <option value="">any</option>
          ${runId && !runChoices.some((run) => run.id === runId) && html`<option value=${runId}>${runId}</option>`}
          ${runChoices.map((run) => html`<option value=${run.id}>${when(run.startedAt)} \u00b7 ${run.status ?? ''} \u00b7 ${percent(run.passRate)}</option>`)}
        </select></div>
    </form>`;
}

export function ReviewView({ query }) {
  const projectName = query.get('projectName') ?? '';
  const experimentId = query.get('experimentId') ?? '';
  const runId = query.get('runId') ?? '';
  // Pages go by cursor (the last item seen), not by number: judged items leave the queue, and a page
  // number would then skip the ones that moved up. Going back is the browser's back button.
  const after = query.get('after') ?? '';
  const [version, setVersion] = useState(0);
  const queue = useApi(`/review-queue${queryString({ projectName, experimentId, runId, after, size: PAGE_SIZE })}`, version);
  const entries = queue.data?.content ?? [];
  const [cursor, setCursor] = useState(0);
  const [mineById, setMineById] = useState({});     // itemResultId -> my annotation (null: none)
  const [everyoneById, setEveryoneById] = useState({});
  const [selected, setSelected] = useState([]);
  const [editing, setEditing] = useState(null);
  const [help, setHelp] = useState(false);
  const [problem, setProblem] = useState(null);
  const current = entries[Math.min(cursor, entries.length - 1)] ?? null;
  const rows = useRef(null);
  // Keys can come faster than the page renders: the handler reads the cursor and what it needs from
  // refs set at once, never from the state of the render before.
  const cursorAt = useRef(0);
  const judged = useRef(new Set());  // items given a verdict here, their PUT perhaps still on its way
  const sent = useRef({});           // itemResultId -> the annotation last sent, before the server answers
  const latest = useRef({});
  latest.current = { entries, mineById, help, editing };
  const moveTo = (at) => {
    cursorAt.current = Math.max(0, Math.min(at, latest.current.entries.length - 1));
    setCursor(cursorAt.current);
  };

  useEffect(() => { cursorAt.current = 0; setCursor(0); }, [queue.data]);
  // The current item's annotations: mine (GET .../annotation, 404 when none) and everyone's.
  useEffect(() => {
    if (!current) return undefined;
    const id = current.itemResultId;
    const controller = new AbortController();
    const path = itemPath(current);
    api(`${path}/annotation`, { signal: controller.signal }).then(
      // An answer that left before a PUT of ours may come after it: what we sent is newer.
      (annotation) => { if (!(id in sent.current)) setMineById((known) => ({ ...known, [id]: annotation })); },
      (error) => { if (error.status === 404) setMineById((known) => (id in known ? known : { ...known, [id]: null })); },
    );
    api(`${path}/annotations`, { signal: controller.signal }).then(
      (list) => setEveryoneById((known) => ({ ...known, [id]: list })),
      () => {},
    );
    return () => controller.abort();
  }, [current?.itemResultId]);
  // The current row stays in sight as j/k move.
  useEffect(() => {
    rows.current?.querySelector('tr[aria-current="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [cursor]);

  const mine = current ? mineById[current.itemResultId] ?? null : null;
  // Writes my annotation of the item at the cursor; a verdict moves on at once, as a reviewer works
  // down the queue.
  const annotate = (changes) => {
    const at = cursorAt.current;
    const entry = latest.current.entries[at];
    if (!entry) return;
    const id = entry.itemResultId;
    const before = sent.current[id] ?? latest.current.mineById[id];
    const body = {
      verdict: changes.verdict ?? before?.verdict ?? 'UNSURE',
      note: 'note' in changes ? changes.note || undefined : before?.note ?? undefined,
      overriddenExpectedOutput: 'overriddenExpectedOutput' in changes ? changes.overriddenExpectedOutput : before?.overriddenExpectedOutput ?? undefined,
    };
    sent.current[id] = body;
    judged.current.add(id);
    setEditing(null);
    if (changes.verdict) moveTo(at + 1);
    api(`${itemPath(entry)}/annotation`, { method: 'PUT', body }).then((annotation) => {
      setProblem(null);
      setMineById((known) => ({ ...known, [id]: annotation }));
      setEveryoneById((known) => ({ ...known, [id]: [...(known[id] ?? []).filter((a) => a.principal !== annotation.principal), annotation] }));
    }, (error) => {
      judged.current.delete(id);
      delete sent.current[id];
      setProblem(error);
    });
  };
  const toggle = (id) => setSelected((list) => (list.includes(id) ? list.filter((other) => other !== id) : [...list, id]));

  useEffect(() => {
    const onKey = (event) => {
      if (isTyping(event)) return;
      const { entries: list, help: helpOpen, editing: editorOpen } = latest.current;
      if (event.key === '?') { event.preventDefault(); setHelp((open) => !open); return; }
      if (event.key === 'Escape') { setHelp(false); setEditing(null); return; }
      const entry = list[cursorAt.current];
      if (helpOpen || editorOpen || !entry || document.querySelector('.overlay')) return;
      const actions = {
        c: () => annotate({ verdict: 'CORRECT' }),
        i: () => annotate({ verdict: 'INCORRECT' }),
        u: () => annotate({ verdict: 'UNSURE' }),
        e: () => setEditing('expected'),
        n: () => setEditing('note'),
        x: () => { if (judged.current.has(entry.itemResultId) || latest.current.mineById[entry.itemResultId]) toggle(entry.itemResultId); },
        j: () => moveTo(cursorAt.current + 1),
        ArrowDown: () => moveTo(cursorAt.current + 1),
        k: () => moveTo(cursorAt.current - 1),
        ArrowUp: () => moveTo(cursorAt.current - 1),
      };
      const action = actions[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const total = queue.data?.totalElements ?? 0;
  return html`
    <${PageHeader} title="Review queue" crumbs=${[{ label: 'Dashboard', href: '/' }]}>
      <p class="subtitle">Run items no reviewer has judged yet, or last judged unsure; oldest first. Press <kbd>?</kbd> for the keys.${' '}
        <button type="button" class="link" onClick=${() => setHelp(true)}>Keyboard help</button></p>
    </${PageHeader}>
    <${Filters} projectName=${projectName} experimentId=${experimentId} runId=${runId} />
    <${ErrorNote} error=${queue.error} what="Queue" />
    ${queue.loading && !queue.data && html`<${Loading} what="Loading the queue" />`}
    <p class="muted" aria-live="polite" data-testid="queue-count">${queue.data ? `${integer(total)} items to review${total > 0 && after ? ' \u00b7 later items' : ''}` : ''}</p>
    ${queue.data && entries.length === 0 && html`<${Empty}>Nothing to review here.</${Empty}>`}
    ${entries.length > 0 && html`
      <div class="review-layout">
        <div class="review-list">
          <div class="table-scroll" ref=${rows}>
            <table class="data compact" data-testid="queue">
              <caption class="sr-only">Items to review</caption>
              <thead><tr><th scope="col"><span class="sr-only">Select for promotion</span></th><th scope="col" class="num">#</th><th scope="col">Input</th><th scope="col">Run said</th><th scope="col">You</th></tr></thead>
              <tbody>
                ${entries.map((entry, at) => {
                  const my = mineById[entry.itemResultId];
                  return html`
                    <tr aria-current=${entry === current ? 'true' : undefined} class=${entry === current ? 'current' : ''} data-testid="queue-row"
                      onClick=${(event) => { if (!event.target.closest('input, a')) moveTo(at); }}>
                      <td><input type="checkbox" checked=${selected.includes(entry.itemResultId)} disabled=${!my}
                        aria-label=${`Promote item ${entry.index}${my ? '' : ' (judge it first)'}`} onChange=${() => toggle(entry.itemResultId)} /></td>
                      <td class="num"><button type="button" class="link" onClick=${() => moveTo(at)} aria-label=${`Review item ${entry.index}`}>${entry.index}</button></td>
                      <td class="input-preview">${preview(entry.inputs, 48)}</td>
                      <td><${Badge} status=${entry.success ? 'PASSED' : 'FAILED'} /></td>
                      <td>${my ? html`<${Badge} status=${my.verdict} />` : ''}</td>
                    </tr>`;
                })}
              </tbody>
            </table>
          </div>
          <div class="pager">
            <button type="button" disabled=${!after} onClick=${() => setQuery({ after: null })}>First page</button>
            <button type="button" disabled=${!queue.data?.nextCursor} onClick=${() => setQuery({ after: queue.data.nextCursor })}>Next page</button>
            <button type="button" class="ghost" onClick=${() => { setVersion(version + 1); setSelected([]); }}>Reload (judged items leave)</button>
          </div>
          <${Promote} selected=${selected} clear=${() => setSelected([])} />
        </div>
        ${current && html`<${CurrentItem} entry=${current} mine=${mine} everyone=${everyoneById[current.itemResultId] ?? current.annotations ?? []}
          editing=${editing} setEditing=${setEditing} annotate=${annotate} problem=${problem} />`}
      </div>`}
    ${help && html`<${HelpOverlay} close=${() => setHelp(false)} />`}`;
}
