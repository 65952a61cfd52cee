// Production traces (docs/server.md "Production traces (OTLP)"): the list, newest first, from the
// server's keyset pages with its filters in the URL; and a trace: its span tree with a time bar per
// span, the selected span's attributes, events and resource, the derived input and output, the
// online evaluations of the trace, and the canonical trace the otel extractor reads from the spans.
import { html, useEffect, useRef, useState } from '../lib/preact.js';
import { setQuery } from '../lib/router.js';
import { DASH, decimal, integer, jsonText, milliseconds, preview } from '../lib/format.js';
import { localToNanos, nanosBetween, nanosWhen, toBigInt } from '../lib/nanos.js';
import { parseExact, queryString } from '../lib/api.js';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader } from '../components/common.js';
import { useApi } from '../components/use_api.js';
import { Section } from './run.js';

const PAGE_SIZE = 50;

export const traceHref = (traceId) => `/traces/${encodeURIComponent(traceId)}`;
const statusName = (status) => {
  const code = status?.code ?? 'STATUS_CODE_UNSET';
  return String(code).replace(/^STATUS_CODE_/, '');
};
const kindName = (kind) => (kind ? String(kind).replace(/^SPAN_KIND_/, '').toLowerCase() : DASH);

// The text filters apply on Enter or the button, so the URL (and the history) gets one entry per
// search; the errors box and the time bounds apply at once.
function TraceFilters({ query }) {
  const [project, setProject] = useState(query.get('project') ?? '');
  const [name, setName] = useState(query.get('name') ?? '');
  useEffect(() => { setProject(query.get('project') ?? ''); setName(query.get('name') ?? ''); }, [query.toString()]);
  const apply = (changes) => setQuery({ ...changes, cursor: null });
  return html`
    <form class="filters" role="search" aria-label="Filter traces" onSubmit=${(event) => { event.preventDefault(); apply({ project, name }); }}>
      <div class="field"><label for="trace-project">Project</label>
        <input id="trace-project" name="project" value=${project} onInput=${(event) => setProject(event.target.value)} /></div>
      <div class="field"><label for="trace-name">Root span name</label>
        <input id="trace-name" name="name" value=${name} onInput=${(event) => setName(event.target.value)} /></div>
      <div class="field"><label for="trace-from">Started from (UTC)</label>
        <input id="trace-from" type="datetime-local" name="from" value=${query.get('from') ?? ''} onChange=${(event) => apply({ from: event.target.value })} /></div>
      <div class="field"><label for="trace-to">Started before (UTC)</label>
        <input id="trace-to" type="datetime-local" name="to" value=${query.get('to') ?? ''} onChange=${(event) => apply({ to: event.target.value })} /></div>
      <label class="check"><input type="checkbox" name="errors" checked=${query.get('errors') === 'true'}
        onChange=${(event) => apply({ errors: event.target.checked ? 'true' : null })} /> With errors only</label>
      <button type="submit">Filter</button>
    </form>`;
}

export function TracesView({ query }) {
  const cursor = query.get('cursor') ?? '';
  const [trail, setTrail] = useState([]);  // the cursors of the pages before this one
  const path = `/traces${queryString({
    project: query.get('project'), name: query.get('name'), errors: query.get('errors') === 'true' ? 'true' : '',
    from: localToNanos(query.get('from')), to: localToNanos(query.get('to')), limit: PAGE_SIZE, cursor,
  })}`;
  const { data, error, loading } = useApi(path);
  const traces = data?.traces ?? [];
  return html`
    <${PageHeader} title="Traces" crumbs=${[{ label: 'Dashboard', href: '/' }]}>
      <p class="subtitle">Spans sent by OpenTelemetry exporters to <code>/v1/traces</code>, a trace a row, newest first.</p>
    </${PageHeader}>
    <${TraceFilters} query=${query} />
    ${loading && !data && html`<${Loading} what="Loading traces" />`}
    <${ErrorNote} error=${error} what="Traces" />
    <p class="muted" aria-live="polite" data-testid="trace-count" data-ready=${!loading && data ? 'true' : 'false'} data-query=${query.toString()}>
      ${data ? `${integer(traces.length)}${data.nextCursor ? ' traces on this page, more after it' : ' traces'}` : ''}</p>
    ${data && traces.length === 0 && html`<${Empty}>No trace matches. Point an exporter at <code>${window.location.origin}/v1/traces</code>.</${Empty}>`}
    ${traces.length > 0 && html`
      <div class="table-scroll">
        <table class="data" data-testid="traces">
          <caption class="sr-only">Traces, newest first</caption>
          <thead><tr><th scope="col">Root span</th><th scope="col">Project</th><th scope="col">Started</th><th scope="col" class="num">Duration</th>
            <th scope="col" class="num">Spans</th><th scope="col" class="num">Errors</th><th scope="col">Input</th><th scope="col">Output</th></tr></thead>
          <tbody>
            ${traces.map((trace) => html`
              <tr data-testid="trace-row">
                <td class="root-name"><a href=${traceHref(trace.traceId)}>${trace.rootName || trace.traceId}</a></td>
                <td class="nowrap">${trace.project ?? ''}</td>
                <td class="nowrap">${nanosWhen(trace.startTimeUnixNano)}</td>
                <td class="num">${milliseconds(nanosBetween(trace.startTimeUnixNano, trace.endTimeUnixNano))}</td>
                <td class="num">${integer(trace.spanCount)}</td>
                <td class="num">${trace.errorCount > 0 ? html`<span class="fail">${integer(trace.errorCount)}</span>` : integer(trace.errorCount)}</td>
                <td class="input-preview narrow">${preview(trace.input, 60)}</td>
                <td class="input-preview narrow">${preview(trace.output, 60)}</td>
              </tr>`)}
          </tbody>
        </table>
      </div>`}
    <div class="pager">
      <button type="button" disabled=${!cursor} onClick=${() => { setTrail([]); setQuery({ cursor: null }); }}>First page</button>
      <button type="button" disabled=${trail.length === 0} onClick=${() => { setQuery({ cursor: trail[trail.length - 1] || null }); setTrail(trail.slice(0, -1)); }}>Previous</button>
      <button type="button" disabled=${!data?.nextCursor} onClick=${() => { setTrail([...trail, cursor]); setQuery({ cursor: data.nextCursor }); }}>Next</button>
    </div>`;
}

// OpenTelemetry GenAI instrumentations put messages into attributes as JSON text; shown indented,
// which is easier to read than one long line. Anything else is shown as it was sent.
function valueText(value) {
  if (typeof value !== 'string') return jsonText(value);
  const trimmed = value.trim();
  if (!/^[[{]/.test(trimmed)) return value;
  try {
    return jsonText(parseExact(trimmed));
  } catch {
    return value;
  }
}

// A span's attributes (or an event's, or the resource's): one row a key, the value as text (a
// string as written, anything else as JSON). Never markup.
function KeyValues({ caption, values, testId }) {
  const entries = values && typeof values === 'object' ? Object.entries(values) : [];
  if (entries.length === 0) return html`<p class="muted">${caption}: none.</p>`;
  return html`
    <table class="data compact kv-table" data-testid=${testId}>
      <caption>${caption}</caption>
      <thead><tr><th scope="col">Key</th><th scope="col">Value</th></tr></thead>
      <tbody>${entries.map(([key, value]) => html`
        <tr><th scope="row" class="kv-key">${key}</th>
          <td><pre class="kv-pre">${valueText(value)}</pre></td></tr>`)}</tbody>
    </table>`;
}

// The spans shown: every span, less the descendants of collapsed ones (the list is in tree order,
// so a collapsed span's descendants are the spans after it that are deeper than it).
function visibleSpans(spans, collapsed) {
  const shown = [];
  let hideDeeperThan = null;
  for (const span of spans) {
    if (hideDeeperThan !== null && span.depth > hideDeeperThan) continue;
    hideDeeperThan = collapsed.has(span.spanId) ? span.depth : null;
    shown.push(span);
  }
  return shown;
}

// Where a span sits in the trace's time, as percentages of the trace's length.
function timeBar(span, traceStart, traceLength) {
  const start = toBigInt(span.startTimeUnixNano);
  const end = toBigInt(span.endTimeUnixNano);
  if (traceStart === null || start === null || end === null || !traceLength) return { left: 0, width: 100 };
  const left = (Number(start - traceStart) / traceLength) * 100;
  const width = Math.max((Number(end - start) / traceLength) * 100, 0.5);
  return { left: Math.min(Math.max(left, 0), 99.5), width: Math.min(width, 100 - Math.max(left, 0)) };
}

// The tree: ↑/↓ move the selection, ← collapses, → expands (as in a file tree); every row's name is
// a button, its arrow another.
function SpanTree({ trace, selectedId, select }) {
  const [collapsed, setCollapsed] = useState(() => new Set());
  const tree = useRef(null);
  const spans = visibleSpans(trace.spans, collapsed);
  const traceStart = toBigInt(trace.startTimeUnixNano);
  const traceEnd = toBigInt(trace.endTimeUnixNano);
  const traceLength = traceStart !== null && traceEnd !== null ? Number(traceEnd - traceStart) : 0;
  const toggle = (spanId, open) => {
    const next = new Set(collapsed);
    if (open ?? next.has(spanId)) next.delete(spanId); else next.add(spanId);
    setCollapsed(next);
  };
  const focusSelected = (spanId) => {
    select(spanId);
    requestAnimationFrame(() => tree.current?.querySelector(`[data-span-id="${spanId}"]`)?.focus());
  };
  const onKey = (event) => {
    const at = spans.findIndex((span) => span.spanId === selectedId);
    const current = spans[at];
    if (event.key === 'ArrowDown' && at + 1 < spans.length) focusSelected(spans[at + 1].spanId);
    else if (event.key === 'ArrowUp' && at > 0) focusSelected(spans[at - 1].spanId);
    else if (event.key === 'ArrowLeft' && current?.childSpanIds?.length && !collapsed.has(current.spanId)) toggle(current.spanId, false);
    else if (event.key === 'ArrowRight' && current && collapsed.has(current.spanId)) toggle(current.spanId, true);
    else return;
    event.preventDefault();
  };
  return html`
    <div class="table-scroll" ref=${tree} onKeyDown=${onKey}>
      <table class="data compact span-tree" data-testid="span-tree">
        <caption class="sr-only">Spans in tree order; arrow keys move the selection, left and right fold a span</caption>
        <thead><tr><th scope="col">Span</th><th scope="col">Kind</th><th scope="col">Status</th><th scope="col" class="num">Duration</th><th scope="col" class="timeline-head">Timeline</th></tr></thead>
        <tbody>
          ${spans.map((span) => {
            const bar = timeBar(span, traceStart, traceLength);
            const status = statusName(span.status);
            const hasChildren = (span.childSpanIds ?? []).length > 0;
            const isOpen = !collapsed.has(span.spanId);
            return html`
              <tr class=${span.spanId === selectedId ? 'current' : ''} data-testid="span-row" aria-selected=${span.spanId === selectedId}>
                <td class="span-name" style=${`padding-left: ${0.4 + span.depth * 1.1}rem`}>
                  ${hasChildren ? html`<button type="button" class="expand" aria-expanded=${isOpen} onClick=${() => toggle(span.spanId)}
                    aria-label=${`${isOpen ? 'Fold' : 'Unfold'} ${span.name}`}>${isOpen ? '\u25be' : '\u25b8'}</button>` : html`<span class="expand-space"></span>`}
                  <button type="button" class="link" data-span-id=${span.spanId} aria-pressed=${span.spanId === selectedId} onClick=${() => select(span.spanId)}>${span.name}</button>
                </td>
                <td>${kindName(span.kind)}</td>
                <td><${Badge} status=${status} /></td>
                <td class="num">${milliseconds(nanosBetween(span.startTimeUnixNano, span.endTimeUnixNano))}</td>
                <td class="timeline"><span class=${`time-bar ${status === 'ERROR' ? 'error' : ''}`} style=${`left: ${bar.left}%; width: ${bar.width}%`}></span></td>
              </tr>`;
          })}
        </tbody>
      </table>
    </div>`;
}

function SpanDetail({ span }) {
  if (!span) return null;
  return html`
    <section class="span-detail" aria-labelledby="span-title" data-testid="span-detail">
      <h3 id="span-title">${span.name}</h3>
      <dl class="facts">
        <dt>Span id</dt><dd><code>${span.spanId}</code></dd>
        <dt>Parent</dt><dd>${span.parentSpanId ? html`<code>${span.parentSpanId}</code>` : 'none (a root)'}</dd>
        <dt>Kind</dt><dd>${kindName(span.kind)}</dd>
        <dt>Status</dt><dd><${Badge} status=${statusName(span.status)} />${span.status?.message ? ` ${span.status.message}` : ''}</dd>
        <dt>Start</dt><dd>${nanosWhen(span.startTimeUnixNano)}</dd>
        <dt>Duration</dt><dd>${milliseconds(nanosBetween(span.startTimeUnixNano, span.endTimeUnixNano))}</dd>
        ${span.scope?.name && html`<dt>Scope</dt><dd>${span.scope.name}${span.scope.version ? ` ${span.scope.version}` : ''}</dd>`}
      </dl>
      <div class="detail-grid">
        <${Section} title="Input" value=${span.input == null ? null : valueText(span.input)} />
        <${Section} title="Output" value=${span.output == null ? null : valueText(span.output)} />
      </div>
      <${KeyValues} caption="Attributes" values=${span.attributes} testId="span-attributes" />
      ${(span.events ?? []).length === 0 ? html`<p class="muted">Events: none.</p>` : html`
        <h4>Events</h4>
        <ol class="events" data-testid="span-events">
          ${span.events.map((event) => html`<li><strong>${event.name}</strong> <span class="muted">${nanosWhen(event.timeUnixNano)}</span>
            <${KeyValues} caption=${`${event.name}: attributes`} values=${event.attributes} /></li>`)}
        </ol>`}
      <${KeyValues} caption="Resource" values=${span.resource} testId="span-resource" />
    </section>`;
}

// What the otel extractor reads from the spans: the conversation, the tool calls with their
// results, the output and the usage (docs/plugins/traces.md); or why it read nothing.
function CanonicalTrace({ trace }) {
  const canonical = trace.canonicalTrace;
  if (!canonical) return html`<p class="muted" data-testid="canonical-error">No canonical trace: ${trace.canonicalTraceError ?? 'the server sent none'}.</p>`;
  const toolCalls = canonical.toolCalls ?? [];
  const turns = canonical.turns ?? [];
  return html`
    <div data-testid="canonical-trace">
      ${canonical.model && html`<p>Model <code>${canonical.model}</code></p>`}
      <${Section} title="Output" value=${canonical.output} />
      <h4>Tool calls (${integer(toolCalls.length)})</h4>
      ${toolCalls.length === 0 ? html`<p class="muted">None.</p>` : html`
        <table class="data compact" data-testid="canonical-tool-calls">
          <caption class="sr-only">Tool calls</caption>
          <thead><tr><th scope="col">Tool</th><th scope="col">Arguments</th><th scope="col">Result</th></tr></thead>
          <tbody>${toolCalls.map((call) => html`<tr><td>${call.name}</td><td><pre class="kv-pre">${jsonText(call.arguments)}</pre></td>
            <td><pre class="kv-pre">${call.result == null ? DASH : typeof call.result === 'string' ? call.result : jsonText(call.result)}</pre></td></tr>`)}</tbody>
        </table>`}
      <h4>Turns (${integer(turns.length)})</h4>
      ${turns.length === 0 ? html`<p class="muted">None.</p>` : html`
        <ol class="turns" data-testid="canonical-turns">
          ${turns.map((turn) => html`<li class=${`turn turn-${turn.role}`}><span class="turn-role">${turn.role}</span>${turn.name ? html` <code>${turn.name}</code>` : ''}
            ${turn.content != null && html`<pre class="kv-pre">${typeof turn.content === 'string' ? turn.content : jsonText(turn.content)}</pre>`}
            ${(turn.toolCalls ?? []).length > 0 && html`<div class="muted">calls ${turn.toolCalls.map((call) => call.name).join(', ')}</div>`}</li>`)}
        </ol>`}
      <${Section} title="Metrics" value=${canonical.metrics} />
    </div>`;
}

// Online evaluations by the trace eval rules: one row each, on the whole trace or one span.
function OnlineScores({ trace, select }) {
  const evaluations = Array.isArray(trace.evaluations) ? trace.evaluations : [];
  if (evaluations.length === 0) return html`<p class="muted" data-testid="online-scores-none">No online evaluation of this trace.</p>`;
  const names = new Map(trace.spans.map((span) => [span.spanId, span.name]));
  return html`
    <div class="table-scroll">
      <table class="data compact" data-testid="online-scores">
        <caption class="sr-only">Online evaluations</caption>
        <thead><tr><th scope="col">Rule</th><th scope="col">Evaluator</th><th scope="col">On</th><th scope="col" class="num">Score</th>
          <th scope="col">Verdict</th><th scope="col">Reason</th><th scope="col">Judged</th></tr></thead>
        <tbody>
          ${evaluations.map((evaluation) => html`
            <tr>
              <td>${evaluation.ruleName ?? evaluation.ruleId ?? ''}</td>
              <td>${evaluation.evaluatorName ?? ''}</td>
              <td>${evaluation.spanId ? html`<button type="button" class="link" onClick=${() => select(evaluation.spanId)}>${names.get(evaluation.spanId) ?? evaluation.spanId}</button>` : 'whole trace'}</td>
              <td class="num">${decimal(evaluation.score)}</td>
              <td>${evaluation.error ? html`<${Badge} status="ERROR" />` : html`<${Badge} status=${evaluation.success ? 'PASSED' : 'FAILED'} />`}</td>
              <td class="reason">${evaluation.error ?? evaluation.reason ?? ''}</td>
              <td class="nowrap">${Number.isFinite(evaluation.judgedAtMs) ? nanosWhen(BigInt(evaluation.judgedAtMs) * 1000000n) : DASH}</td>
            </tr>`)}
        </tbody>
      </table>
    </div>`;
}

export function TraceView({ params, query }) {
  const { data: trace, error, loading } = useApi(`/traces/${encodeURIComponent(params.traceId)}`);
  const spans = trace?.spans ?? [];
  const selectedId = query.get('span') ?? trace?.rootSpanId ?? spans[0]?.spanId;
  const selected = spans.find((span) => span.spanId === selectedId) ?? spans[0];
  // The selection is in the URL (a link shows the same span) without one history entry per click.
  const select = (spanId) => setQuery({ span: spanId }, { replace: true });
  const errors = spans.filter((span) => statusName(span.status) === 'ERROR').length;
  return html`
    <${PageHeader} title=${trace ? `Trace ${trace.rootName ?? trace.traceId}` : 'Trace'}
      crumbs=${[{ label: 'Traces', href: trace?.project ? `/traces?project=${encodeURIComponent(trace.project)}` : '/traces' }]}>
      ${trace && html`<p class="subtitle"><code>${trace.traceId}</code>${trace.project ? ` \u00b7 project ${trace.project}` : ''} \u00b7 started ${nanosWhen(trace.startTimeUnixNano)}</p>`}
    </${PageHeader}>
    ${loading && !trace && html`<${Loading} what="Loading the trace" />`}
    <${ErrorNote} error=${error} what="Trace" />
    ${trace && html`
      <div class="cards">
        <${Card} testId="card-duration" label="Duration" value=${milliseconds(nanosBetween(trace.startTimeUnixNano, trace.endTimeUnixNano))} />
        <${Card} testId="card-spans" label="Spans" value=${integer(trace.spanCount ?? spans.length)} />
        <${Card} testId="card-errors" label="Error spans" value=${integer(trace.errorCount ?? errors)} />
      </div>
      <div class="detail-grid" data-testid="trace-io">
        <${Section} title="Input" value=${trace.input} />
        <${Section} title="Output" value=${trace.output} />
      </div>
      <section aria-labelledby="online-heading">
        <h2 id="online-heading">Online scores</h2>
        <${OnlineScores} trace=${trace} select=${select} />
      </section>
      <div class="trace-layout">
        <section aria-labelledby="spans-heading" class="trace-spans">
          <h2 id="spans-heading">Spans</h2>
          <${SpanTree} trace=${trace} selectedId=${selected?.spanId} select=${select} />
          <${SpanDetail} span=${selected} />
        </section>
        <section aria-labelledby="canonical-heading" class="trace-canonical">
          <h2 id="canonical-heading">Canonical trace</h2>
          <${CanonicalTrace} trace=${trace} />
        </section>
      </div>`}`;
}
