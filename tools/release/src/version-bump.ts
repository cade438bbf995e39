import { diff, type ReleaseType, valid } from 'semver';

/** A version change, in the words of semver and of `nx release plan`; `none` is no change. */
export type Bump = 'major' | 'minor' | 'patch' | 'none';

const RANK: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };
/** semver's difference, a pre-release of one counted as that one. */
const AS_BUMP: Record<ReleaseType, Bump> = { major: 'major', premajor: 'major', minor: 'minor', preminor: 'minor', patch: 'patch', prepatch: 'patch', prerelease: 'patch', release: 'patch' };

/** The bump from one version to another (semver's `diff`). */
export function bumpOf(from: string, to: string): Bump {
  if (!valid(from) || !valid(to)) throw new Error(`not a version pair: ${from} → ${to}`);
  const difference = diff(from, to);
  return difference === null ? 'none' : AS_BUMP[difference];
}

/**
 * Whether the version plans' bump is enough for what the gate found since the last release: a minor change (an
 * addition) needs at least a minor version, a major one (a break, or a change the gate cannot weigh) a major.
 */
export const covers = (bump: Bump, change: 'major' | 'minor' | 'none') => RANK[bump] >= RANK[change];
