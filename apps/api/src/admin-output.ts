/** A time as the admin commands show it: UTC to the second; `-` for none. */
export const shownTime = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

/** Prints a listing on stdout: the rows as JSON with `--json`, else a tab-separated table under its header. */
export function printListing<T>(rows: T[], json: boolean | undefined, header: string[], cells: (row: T) => Array<string | number>): void {
  const text = json ? JSON.stringify(rows, null, 2) : [header, ...rows.map(cells)].map((line) => line.join('\t')).join('\n');
  process.stdout.write(`${text}\n`);
}
