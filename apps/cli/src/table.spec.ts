import { displayWidth, formatTable } from './table';

describe(formatTable.name, () => {
  it('pads every column to its widest cell, two spaces apart, with no trailing spaces', () => {
    expect(formatTable(['ID', 'NAME'], [['1', 'Rex'], ['12', 'Bo']])).toBe('ID  NAME\n1   Rex\n12  Bo\n');
  });

  it('prints only the header when there are no rows', () => {
    expect(formatTable(['ID', 'NAME'], [])).toBe('ID  NAME\n');
  });

  it('keeps columns straight after names with combining accents, emoji and CJK characters', () => {
    expect(formatTable(['NAME', 'STATUS'], [['Zoe\u0301', 'a'], ['🐶 Rex', 'b'], ['小白', 'c']])).toBe(
      ['NAME    STATUS', 'Zoe\u0301     a', '🐶 Rex  b', '小白    c', ''].join('\n'),
    );
  });

  it('replaces control characters, so that a name cannot break a row or send escape sequences', () => {
    expect(formatTable(['NAME'], [['Rex\n\u001b[2Jx']])).toBe('NAME\nRex\uFFFD\uFFFD[2Jx\n');
  });
});

describe(displayWidth.name, () => {
  it.each([
    ['Rex', 3],
    ['Zoe\u0301', 3],
    ['🐶', 2],
    ['👩‍👩‍👧', 2],
    ['小白', 4],
    ['', 0],
  ])('counts %j as %i terminal columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });
});
