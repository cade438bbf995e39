import { bumpOf, covers } from './version-bump';

describe(bumpOf.name, () => {
  it.each([
    ['1.0.0', '2.0.0', 'major'],
    ['1.4.2', '1.5.0', 'minor'],
    ['1.4.2', '1.4.3', 'patch'],
    ['1.4.2', '1.4.2', 'none'],
  ] as const)('%s → %s is %s', (from, to, bump) => expect(bumpOf(from, to)).toBe(bump));

  it('refuses what is not a version', () => expect(() => bumpOf('1.0', '1.1.0')).toThrow('not a version pair'));
});

describe(covers.name, () => {
  it.each([
    ['patch', 'minor', false],
    ['minor', 'minor', true],
    ['major', 'minor', true],
    ['minor', 'major', false],
    ['patch', 'none', true],
  ] as const)('a %s bump for a %s change: %s', (bump, change, enough) => expect(covers(bump, change)).toBe(enough));
});
