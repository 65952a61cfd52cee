// An evaluator's score distribution as bars (SVG drawn by Preact: no inline styles, which the
// policy forbids), with the counts as text for screen readers.
import { html } from '../lib/preact.js';
import { decimal, integer } from '../lib/format.js';

export function Histogram({ histogram, label }) {
  const buckets = histogram?.buckets ?? [];
  if (buckets.length === 0) return html`<p class="empty">No scores.</p>`;
  const highest = Math.max(1, ...buckets);
  const width = 200;
  const height = 48;
  const barWidth = width / buckets.length;
  const step = (histogram.max - histogram.min) / buckets.length;
  const ranges = buckets.map((count, i) => {
    const from = histogram.min + i * step;
    return `${decimal(from, 2)}\u2013${decimal(from + step, 2)}: ${integer(count)}`;
  });
  return html`
    <figure class="histogram">
      <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-label=${`${label} scores from ${decimal(histogram.min, 2)} to ${decimal(histogram.max, 2)}`} preserveAspectRatio="none">
        ${buckets.map((count, i) => {
          const barHeight = count === 0 ? 0 : Math.max(1.5, (count / highest) * (height - 2));
          return html`<rect class="bar" x=${i * barWidth + 0.5} y=${height - barHeight} width=${Math.max(1, barWidth - 1)} height=${barHeight}><title>${ranges[i]}</title></rect>`;
        })}
      </svg>
      <figcaption><span>${decimal(histogram.min, 2)}</span><span>${decimal(histogram.max, 2)}</span></figcaption>
    </figure>`;
}
