export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

/** `median (min–max)`, or the bare value when there was only one round. */
export function formatSpread({ median, min, max }: Spread, digits = 0): string {
  const f = (value: number) => value.toFixed(digits);
  return min === max ? f(median) : `${f(median)} (${f(min)}–${f(max)})`;
}

export function ratio(a: number, b: number): string {
  return b ? (a / b).toFixed(2) : '-';
}

/** A plain-text table with a header row and left-aligned columns. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}
