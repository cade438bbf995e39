/** A version change, in the words of semver and of `nx release plan`; `none` is no change. */
export type Bump = 'major' | 'minor' | 'patch' | 'none';

const RANK: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** The bump from one `x.y.z` version to another. */
export function bumpOf(from: string, to: string): Bump {
  const [a, b] = [from, to].map((version) => version.split('.').map((part) => Number.parseInt(part, 10)));
  if (a.length !== 3 || b.length !== 3 || [...a, ...b].some(Number.isNaN)) throw new Error(`not a version pair: ${from} → ${to}`);
  if (b[0] !== a[0]) return 'major';
  if (b[1] !== a[1]) return 'minor';
  return b[2] !== a[2] ? 'patch' : 'none';
}

/**
 * Whether the version plans' bump is enough for what the gate found since the last release: a minor change (an
 * addition) needs at least a minor version, a major one (a break, or a change the gate cannot weigh) a major.
 */
export const covers = (bump: Bump, change: 'major' | 'minor' | 'none') => RANK[bump] >= RANK[change];
