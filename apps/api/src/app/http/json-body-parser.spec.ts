import { jsonDepth } from './json-body-parser';

describe(jsonDepth.name, () => {
  const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);

  it.each([
    [1, 0],
    ['x', 0],
    [null, 0],
    [{}, 1],
    [[], 1],
    [{ a: { b: [1] } }, 3],
    [{ a: 1, b: [[[{}]]] }, 5],
  ])('measures %j as %i levels', (value, depth) => expect(jsonDepth(value)).toBe(depth));

  it('measures deep values without recursion', () => {
    expect(jsonDepth(nested(32))).toBe(32);
    expect(jsonDepth(nested(100_000))).toBe(100_000);
  });
});
