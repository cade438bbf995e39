import { projectsNamedBy, projectsWithoutPlan } from './plan-coverage';

const IGNORED = ['**/*.spec.ts', '**/CHANGELOG.md'];

describe(projectsNamedBy.name, () => {
  it.each([
    ['---\n__default__: minor\n---\n\nBoth.\n', ['client', 'contract']],
    ['---\ncontract: minor\n---\n\nThe contract only.\n', ['contract']],
    ['---\nclient: patch\n---\n\nThe client only.\n', ['client']],
    ['---\nclient: minor\ncontract: minor\n---\n\nBoth, by name.\n', ['client', 'contract']],
    ['---\r\ncontract: fix\r\n---\r\n\r\nWritten on Windows.\r\n', ['contract']],
    ['No front matter.\n', []],
  ])('%j names %j', (plan, projects) => expect(projectsNamedBy(plan)).toEqual(projects));
});

describe(projectsWithoutPlan.name, () => {
  const change = ['libs/client/src/lib/petstore-client.ts', 'libs/contract/src/lib/pet.ts'];

  it('asks a plan naming each package a change touched', () => {
    expect(projectsWithoutPlan(change, [['contract']], IGNORED)).toEqual(['client']);
    expect(projectsWithoutPlan(change, [['client']], IGNORED)).toEqual(['contract']);
    expect(projectsWithoutPlan(change, [], IGNORED)).toEqual(['client', 'contract']);
  });

  it('is content with plans that together name them', () => {
    expect(projectsWithoutPlan(change, [['contract'], ['client']], IGNORED)).toEqual([]);
    expect(projectsWithoutPlan(change, [['client', 'contract']], IGNORED)).toEqual([]);
  });

  it('asks nothing of files outside the packages, or that the ignore patterns leave out', () => {
    expect(projectsWithoutPlan(['apps/api/src/main.ts', 'libs/client/src/lib/retry.spec.ts', 'libs/client/CHANGELOG.md'], [], IGNORED)).toEqual([]);
  });
});
