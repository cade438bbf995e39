/**
 * Plain-text columns for people: a header row, then one row per record, each column as wide as its widest cell
 * as a terminal shows it, so that accents, emoji and CJK names keep the columns straight.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((row) => row.map(printable));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => displayWidth(row[column] ?? ''))));
  return cells
    .map((row) => row.map((cell, column) => cell + ' '.repeat(widths[column] - displayWidth(cell))).join('  ').trimEnd())
    .map((line) => `${line}\n`)
    .join('');
}

// Characters a terminal draws two columns wide: emoji shown as emoji, and the East Asian wide and fullwidth blocks.
const WIDE = /[\p{Emoji_Presentation}\u{FE0F}\u{1100}-\u{115F}\u{2E80}-\u{A4CF}\u{AC00}-\u{D7A3}\u{F900}-\u{FAFF}\u{FE30}-\u{FE4F}\u{FF00}-\u{FF60}\u{FFE0}-\u{FFE6}\u{20000}-\u{3FFFD}]/u;
const graphemes = new Intl.Segmenter();

/** Terminal columns of a line of text: one per user-perceived character, two for a wide one. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += WIDE.test(segment) ? 2 : 1;
  return width;
}

// Cells hold data from the service: a control character in a pet's name could break the layout or, as an escape
// sequence, take over the terminal.
// eslint-disable-next-line no-control-regex
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD');
