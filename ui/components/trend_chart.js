// The experiment's trend across runs (uPlot): pass rate and each evaluator's mean score, each with
// its confidence interval as a band. The x axis is the run's number, oldest first; the legend and
// the runs table below it carry the same numbers as text.
import { html, useEffect, useRef } from '../lib/preact.js';

// uPlot's minified release (a classic script in index.html) defines it as a global: its ES-module
// build is unminified, with the author's working notes in its comments.
const uPlot = globalThis.uPlot;

// Distinguishable in light and dark mode (checked against both backgrounds).
export const PALETTE = ['#2f6fde', '#d0640b', '#1f9d6b', '#b23fb5', '#c0392b', '#6c7a89', '#8e7d0f', '#0e8fa3'];

function withAlpha(hex, alpha) {
  const value = parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}

// Columns for uPlot: x, then per line its value, low and high.
export function trendSeries(runs) {
  const lines = [{ name: 'Pass rate', values: runs.map((run) => run.passRate ?? null), ci: runs.map((run) => run.passRateCi ?? null) }];
  const names = [];
  for (const run of runs) for (const evaluator of run.evaluators ?? []) if (!names.includes(evaluator.name)) names.push(evaluator.name);
  for (const name of names) {
    const found = runs.map((run) => (run.evaluators ?? []).find((evaluator) => evaluator.name === name));
    lines.push({ name, values: found.map((e) => e?.mean ?? null), ci: found.map((e) => e?.ci ?? null) });
  }
  return lines;
}

export function TrendChart({ runs }) {
  const host = useRef(null);
  const lines = trendSeries(runs);
  useEffect(() => {
    if (!host.current || runs.length === 0) return undefined;
    const styles = getComputedStyle(document.documentElement);
    const ink = styles.getPropertyValue('--ink-2').trim() || '#555';
    const grid = styles.getPropertyValue('--line').trim() || '#ddd';
    const data = [runs.map((_, i) => i + 1)];
    const series = [{ label: 'Run' }];
    const bands = [];
    lines.forEach((line, i) => {
      const color = PALETTE[i % PALETTE.length];
      const at = data.length;
      data.push(line.values, line.ci.map((ci) => (ci ? ci[0] : null)), line.ci.map((ci) => (ci ? ci[1] : null)));
      series.push({ label: line.name, stroke: color, width: 2, points: { show: true, size: 6, fill: color }, spanGaps: true },
        { label: `${line.name} low`, stroke: 'transparent', points: { show: false }, spanGaps: true },
        { label: `${line.name} high`, stroke: 'transparent', points: { show: false }, spanGaps: true });
      bands.push({ series: [at + 2, at + 1], fill: withAlpha(color, 0.14) });
    });
    const axis = { stroke: ink, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const chart = new uPlot({
      width: host.current.clientWidth || 640,
      height: 260,
      series,
      bands,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false }, y: { range: [0, 1] } },
      axes: [{ ...axis, label: 'run', incrs: [1, 2, 5, 10, 20, 50, 100] }, { ...axis, values: (u, ticks) => ticks.map((t) => `${Math.round(t * 100)}%`) }],
    }, data, host.current);
    const resize = () => chart.setSize({ width: host.current?.clientWidth || 640, height: 260 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [runs]);
  if (runs.length === 0) return html`<p class="empty">No runs yet.</p>`;
  return html`
    <figure class="trend" aria-label="Pass rate and evaluator means by run, with confidence bands">
      <div ref=${host} class="trend-plot"></div>
      <figcaption>
        <ul class="legend">
          ${lines.map((line, i) => html`<li><span class=${`swatch swatch-${i % PALETTE.length}`} aria-hidden="true"></span>${line.name}</li>`)}
        </ul>
        <span class="muted">Shaded: 95% confidence interval, where the server has one.</span>
      </figcaption>
    </figure>`;
}
