import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { parse } from 'yaml';

// A version plan names the package(s) its changelog line is for (docs/releasing.md, "Between releases"). In a fixed
// group Nx counts any plan as covering every project of the group, so `nx release plan:check` passes a change to the
// client whose only plan names the contract; this is the check of the rest.

/** The released projects, by the folder that holds each (nx.json's `release.projects`). */
export const RELEASED_PROJECTS = { client: 'libs/client/', contract: 'libs/contract/' } as const;
export type ReleasedProject = keyof typeof RELEASED_PROJECTS;
const ALL = Object.keys(RELEASED_PROJECTS) as ReleasedProject[];
/** A plan's key for the whole group: Nx's implicit release group, both packages. */
export const BOTH_PACKAGES = '__default__';

/** The projects a plan's front matter names: each by its name, or both by `__default__`. */
export function projectsNamedBy(plan: string): ReleasedProject[] {
  const frontMatter = /^---\n([\s\S]*?)\n---/.exec(plan.replace(/\r\n/g, '\n'))?.[1];
  const keys = Object.keys((frontMatter && (parse(frontMatter) as Record<string, unknown> | null)) || {});
  return keys.includes(BOTH_PACKAGES) ? ALL : ALL.filter((project) => keys.includes(project));
}

/** The pending plans of `folder`, each as the projects it names. */
export function pendingPlans(folder: string): ReleasedProject[][] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => file.endsWith('.md'))
    .map((file) => projectsNamedBy(readFileSync(join(folder, file), 'utf8')));
}

/** The released projects a changed file (not matched by an ignore pattern) is in, that no plan names. */
export function projectsWithoutPlan(changedFiles: string[], plans: ReleasedProject[][], ignorePatterns: string[]): ReleasedProject[] {
  const counted = changedFiles.filter((file) => !ignorePatterns.some((pattern) => matchesGlob(file, pattern)));
  const touched = ALL.filter((project) => counted.some((file) => file.startsWith(RELEASED_PROJECTS[project])));
  return touched.filter((project) => !plans.some((named) => named.includes(project)));
}
