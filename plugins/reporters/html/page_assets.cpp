#include "page_assets.hpp"

namespace krino::html {

const char* const kPageStyle = R"CSS(
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --panel: #f6f8fa;
  --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9;
  --error: #9a6700; --error-bg: #fff8c5; --skip: #59636e; --skip-bg: #eff2f5; --accent: #0969da;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --border: #3d444d; --panel: #151b23;
    --pass: #3fb950; --pass-bg: #12261e; --fail: #f85149; --fail-bg: #25171c;
    --error: #d29922; --error-bg: #272115; --skip: #9198a1; --skip-bg: #212830; --accent: #4493f8;
  }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1400px; padding: 24px; background: var(--bg); color: var(--fg);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 24px; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 18px; margin: 32px 0 12px; border-bottom: 1px solid var(--border); padding-bottom: 6px; }
.meta, .description, .note { color: var(--muted); margin: 4px 0; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 12px;
  vertical-align: middle; border: 1px solid currentColor; }
.badge.completed, .badge.passed { color: var(--pass); background: var(--pass-bg); }
.badge.cancelled, .badge.interrupted, .badge.error { color: var(--error); background: var(--error-bg); }
.badge.failed { color: var(--fail); background: var(--fail-bg); }
.badge.skipped { color: var(--skip); background: var(--skip-bg); }
.notice { margin: 16px 0; padding: 12px 16px; border: 1px solid var(--error); border-radius: 6px;
  background: var(--error-bg); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 12px; margin-top: 20px; }
.card { border: 1px solid var(--border); border-radius: 8px; padding: 12px 16px; background: var(--panel); }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 26px; font-weight: 600; }
.card .sub { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.value.pass, td.pass, .verdict.pass { color: var(--pass); }
.value.fail, td.fail, .verdict.fail { color: var(--fail); }
.value.error, .verdict.error { color: var(--error); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--border); vertical-align: top; }
th { background: var(--panel); font-weight: 600; white-space: nowrap; }
th[data-key], table.sortable th { cursor: pointer; user-select: none; }
th[aria-sort="ascending"]::after { content: " \25B2"; }
th[aria-sort="descending"]::after { content: " \25BC"; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 16px; }
figure { margin: 0; border: 1px solid var(--border); border-radius: 8px; padding: 8px 12px; background: var(--panel); }
figcaption { font-weight: 600; overflow-wrap: anywhere; }
figcaption span { color: var(--muted); font-weight: 400; font-size: 12px; margin-left: 6px; }
svg.histogram { width: 100%; height: auto; display: block; }
svg .axis { stroke: var(--muted); stroke-width: 1; }
svg .tick { fill: var(--muted); font-size: 10px; }
svg .bar { fill: var(--accent); }
svg .bar.pass { fill: var(--pass); }
svg .bar.fail { fill: var(--fail); }
svg .threshold { stroke: var(--fg); stroke-width: 1.5; stroke-dasharray: 4 3; }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-bottom: 12px; }
.controls input, .controls select, button { font: inherit; color: var(--fg); background: var(--bg);
  border: 1px solid var(--border); border-radius: 6px; padding: 4px 8px; }
.controls input { min-width: 280px; flex: 1; }
#shown { color: var(--muted); }
tr.item { cursor: pointer; }
tr.item:hover, tr.item:focus { background: var(--panel); outline: none; }
tr.item td.text { max-width: 420px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
tr.detail > td { background: var(--panel); }
tr.detail dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 4px 0; }
tr.detail dt { color: var(--muted); font-weight: 600; }
tr.detail dd { margin: 0; }
tr.detail pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.45 ui-monospace, SFMono-Regular,
  Menlo, Consolas, monospace; }
button#more { margin-top: 12px; cursor: pointer; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
)CSS";

const char* const kPageScript = R"JS(
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('krino-data').textContent);
  var items = data.items;
  var evaluators = data.evaluators;
  var runs = data.runs;
  var PAGE = 500;
  var STATUS_ORDER = { error: 0, failed: 1, skipped: 2, passed: 3 };
  var state = { text: '', status: 'all', run: 'all', sort: 'index', dir: 1, limit: PAGE };

  var table = document.getElementById('item-table');
  var tbody = table.querySelector('tbody');
  var filterInput = document.getElementById('filter');
  var statusSelect = document.getElementById('status');
  var runSelect = document.getElementById('run');
  var shown = document.getElementById('shown');
  var more = document.getElementById('more');

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function label(item) { return item.id !== null ? item.id : '#' + item.i; }
  function score(result) { return result && result[0] !== null ? result[0] : null; }
  function fixed(value) { return value === null ? 'null' : value.toFixed(2); }

  items.forEach(function (item) {
    var parts = [label(item), item.loc || '', item.in, item.exp, item.act];
    item.res.forEach(function (r) { if (r) parts.push(r[2]); });
    if (item.err) parts.push(item.err.stage, item.err.component, item.err.code, item.err.message);
    item.search = parts.join('\n').toLowerCase();
  });

  function matches(item) {
    if (state.status === 'problems') {
      if (item.s !== 'failed' && item.s !== 'error') return false;
    } else if (state.status !== 'all' && item.s !== state.status) {
      return false;
    }
    if (state.run !== 'all' && String(item.r + 1) !== state.run) return false;
    return !state.text || item.search.indexOf(state.text.toLowerCase()) >= 0;
  }

  function key(item) {
    if (state.sort === 'status') return STATUS_ORDER[item.s];
    if (state.sort === 'id') return label(item).toLowerCase();
    if (state.sort === 'input') return item.in.toLowerCase();
    if (state.sort === 'ms') return item.ms === null ? -1 : item.ms;
    if (state.sort.indexOf('score') === 0) {
      var s = score(item.res[Number(state.sort.slice(5))]);
      return s === null ? -1 : s;
    }
    return null;
  }
  function compare(a, b) {
    var ka = key(a), kb = key(b);
    if (ka !== null && ka !== kb) return (ka < kb ? -1 : 1) * state.dir;
    if (a.r !== b.r) return (a.r - b.r) * (ka === null ? state.dir : 1);
    return (a.i - b.i) * (ka === null ? state.dir : 1);
  }

  function row(item) {
    var tr = el('tr', 'item ' + item.s);
    tr.tabIndex = 0;
    tr.appendChild(el('td', 'number', (runs > 1 ? (item.r + 1) + ' / ' : '') + item.i));
    var status = el('td');
    status.appendChild(el('span', 'badge ' + item.s, item.s));
    tr.appendChild(status);
    tr.appendChild(el('td', 'text', label(item)));
    var input = el('td', 'text', item.in);
    input.title = item.in;
    tr.appendChild(input);
    evaluators.forEach(function (evaluator, k) {
      var r = item.res[k];
      var cell = el('td', 'number' + (r ? (r[1] ? ' pass' : ' fail') : ''), r ? fixed(r[0]) : '');
      if (r && r[2]) cell.title = r[2];
      tr.appendChild(cell);
    });
    tr.appendChild(el('td', 'number', item.ms === null ? '' : item.ms.toFixed(1) + ' ms'));
    function toggle() {
      var next = tr.nextSibling;
      if (next && next.classList.contains('detail')) {
        next.remove();
        tr.setAttribute('aria-expanded', 'false');
      } else {
        tr.parentNode.insertBefore(detail(item), tr.nextSibling);
        tr.setAttribute('aria-expanded', 'true');
      }
    }
    tr.addEventListener('click', toggle);
    tr.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); toggle(); }
    });
    return tr;
  }

  function detail(item) {
    var tr = el('tr', 'detail');
    var td = el('td');
    td.colSpan = 5 + evaluators.length;
    var dl = el('dl');
    function entry(term, value, preformatted) {
      if (value === null || value === undefined || value === '') return;
      dl.appendChild(el('dt', '', term));
      var dd = el('dd');
      dd.appendChild(preformatted ? el('pre', '', value) : document.createTextNode(String(value)));
      dl.appendChild(dd);
    }
    entry('Item', label(item) + (runs > 1 ? ' (run ' + (item.r + 1) + ' of ' + runs + ')' : ''));
    entry('Location', item.loc);
    entry('Input', item.in, true);
    entry('Expected', item.exp, true);
    entry('Actual', item.act, true);
    evaluators.forEach(function (evaluator, k) {
      var r = item.res[k];
      if (!r) return;
      var verdict = r[3] ? 'skipped' : r[1] ? 'passed' : 'FAILED';
      var text = fixed(r[0]) + (evaluator.threshold !== null ? ' (threshold ' + evaluator.threshold.toFixed(2) + ')' : '') +
        ' ' + verdict + (r[2] ? ': ' + r[2] : '');
      dl.appendChild(el('dt', '', evaluator.name));
      var dd = el('dd');
      dd.appendChild(el('pre', 'verdict ' + (r[1] ? 'pass' : 'fail'), text));
      dl.appendChild(dd);
    });
    if (item.err) {
      entry('Error', item.err.stage + (item.err.component ? ' ' + item.err.component : '') + ': ' + item.err.code);
      entry('Message', item.err.message, true);
    }
    entry('Duration', item.ms === null ? null : item.ms + ' ms');
    td.appendChild(dl);
    tr.appendChild(td);
    return tr;
  }

  function render() {
    var list = items.filter(matches).sort(compare);
    var fragment = document.createDocumentFragment();
    list.slice(0, state.limit).forEach(function (item) { fragment.appendChild(row(item)); });
    tbody.textContent = '';
    tbody.appendChild(fragment);
    var count = Math.min(list.length, state.limit);
    shown.textContent = 'Showing ' + count + ' of ' + list.length + ' matching items';
    more.hidden = list.length <= state.limit;
    table.querySelectorAll('th[data-key]').forEach(function (th) {
      if (th.getAttribute('data-key') === state.sort) th.setAttribute('aria-sort', state.dir > 0 ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
    });
    document.body.setAttribute('data-items-shown', String(count));
  }

  function readHash() {
    var params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
    state.text = params.get('filter') || '';
    state.status = params.get('status') || 'all';
    state.run = params.get('run') || 'all';
    var sort = params.get('sort') || 'index';
    state.dir = sort.charAt(0) === '-' ? -1 : 1;
    state.sort = sort.replace(/^-/, '');
    state.limit = PAGE;
    filterInput.value = state.text;
    statusSelect.value = state.status;
    if (statusSelect.value !== state.status) { statusSelect.value = 'all'; state.status = 'all'; }
    runSelect.value = state.run;
    if (runSelect.value !== state.run) { runSelect.value = 'all'; state.run = 'all'; }
  }
  function writeHash() {
    var params = new URLSearchParams();
    if (state.text) params.set('filter', state.text);
    if (state.status !== 'all') params.set('status', state.status);
    if (state.run !== 'all') params.set('run', state.run);
    if (state.sort !== 'index' || state.dir < 0) params.set('sort', (state.dir < 0 ? '-' : '') + state.sort);
    var hash = params.toString();
    try {
      history.replaceState(null, '', hash ? '#' + hash : window.location.pathname + window.location.search);
    } catch (e) {
      // Some browsers refuse history changes on file:// pages; the view still works.
    }
  }

  for (var run = 1; run <= runs; ++run) runSelect.appendChild(el('option', '', 'Run ' + run)).value = String(run);
  runSelect.parentNode.hidden = runs <= 1;

  filterInput.addEventListener('input', function () { state.text = filterInput.value; state.limit = PAGE; render(); writeHash(); });
  statusSelect.addEventListener('change', function () { state.status = statusSelect.value; state.limit = PAGE; render(); writeHash(); });
  runSelect.addEventListener('change', function () { state.run = runSelect.value; state.limit = PAGE; render(); writeHash(); });
  more.addEventListener('click', function () { state.limit += PAGE; render(); });
  table.querySelectorAll('th[data-key]').forEach(function (th) {
    th.addEventListener('click', function () {
      var column = th.getAttribute('data-key');
      state.dir = state.sort === column ? -state.dir : (column === 'index' || column === 'id' || column === 'input' ? 1 : -1);
      state.sort = column;
      render();
      writeHash();
    });
  });
  window.addEventListener('hashchange', function () { readHash(); render(); });

  // The evaluator table: click a heading to sort by it.
  document.querySelectorAll('table.sortable').forEach(function (sortable) {
    sortable.querySelectorAll('th').forEach(function (th, column) {
      th.addEventListener('click', function () {
        var descending = th.getAttribute('aria-sort') === 'ascending';
        sortable.querySelectorAll('th').forEach(function (other) { other.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
        var body = sortable.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[column].getAttribute('data-value'), y = b.cells[column].getAttribute('data-value');
          var order = x !== null && y !== null ? Number(x) - Number(y)
            : a.cells[column].textContent.localeCompare(b.cells[column].textContent);
          return descending ? -order : order;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });

  readHash();
  render();
})();
)JS";

}  // namespace krino::html
