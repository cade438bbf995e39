/**
 * The rows of a table the CLI printed (a header, then a row per record, columns aligned), each as its non-empty cells
 * by header. A column starts where its header does, so a row out of line reads wrong; an empty cell is left out, so
 * that a test naming the cells it expects holds when a field it does not know of (an optional, empty one) is added.
 */
export function readTextTable(text: string): Array<Record<string, string>> {
  const [header = '', ...rows] = text.replace(/\n$/, '').split('\n');
  const starts = [...header.matchAll(/\S+(?: \S+)*/g)].map((match) => ({ name: match[0], at: match.index }));
  return rows.map((row) => {
    const cells: Record<string, string> = {};
    starts.forEach(({ name, at }, index) => {
      const cell = row.slice(at, starts[index + 1]?.at).trim();
      if (cell !== '') cells[name] = cell;
    });
    return cells;
  });
}
