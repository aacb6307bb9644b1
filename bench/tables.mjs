// Formatting for the bench's tables: markdown tables whose columns line up in a terminal, and the
// figures in them (medians of pooled samples, times, ratios, sizes).

export const median = (values) => {
  const present = values.filter((value) => typeof value === 'number' && Number.isFinite(value));
  return present.length ? [...present].sort((a, b) => a - b)[Math.floor(present.length / 2)] : undefined;
};

/** A time: ms below 10 s, else s. */
export const ms = (value) =>
  value === undefined
    ? '—'
    : value >= 10_000
      ? `${(value / 1000).toFixed(2)} s`
      : value >= 100
        ? `${value.toFixed(0)} ms`
        : `${value.toFixed(1)} ms`;
/** A signed difference of times. */
export const plusMs = (value) => (value === undefined ? '—' : `${value >= 0 ? '+' : '−'}${ms(Math.abs(value))}`);
export const ratio = (value, floor) => (value === undefined || !floor ? '—' : `${(value / floor).toFixed(2)}×`);
export const mib = (value) => (value === undefined ? '—' : `${value.toFixed(value < 10 ? 1 : 0)} MiB`);

/** Prints `rows` (arrays of cells) under `header` as a markdown table, padded to line up. */
export function printTable(header, rows) {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => String(row[i] ?? '').length)));
  const line = (cells) => `| ${cells.map((cell, i) => String(cell ?? '').padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
  console.log('');
}
