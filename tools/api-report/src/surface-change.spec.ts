import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifySurfaceChange } from './surface-change';

// Seeded changes to a copy of the committed report, each the way API Extractor would write it.
const COMMITTED = readFileSync(join(__dirname, '../../../libs/client/api/client.api.md'), 'utf8');

function seeded(from: string, to: string): string {
  if (!COMMITTED.includes(from)) throw new Error(`the committed report no longer holds ${JSON.stringify(from)}`);
  return COMMITTED.replace(from, to);
}

describe(classifySurfaceChange.name, () => {
  it('finds nothing between a report and itself', () => {
    expect(classifySurfaceChange(COMMITTED, COMMITTED)).toEqual({ level: 'none', reasons: [] });
  });

  it('calls a removed export major', () => {
    const removed = seeded('// @public\nexport function newIdempotencyKey(): string;\n\n', '');

    expect(classifySurfaceChange(COMMITTED, removed)).toEqual({ level: 'major', reasons: ['removed newIdempotencyKey'] });
  });

  it('calls a changed signature major, naming the line that went', () => {
    const changed = seeded('getPet(id: number, options', 'getPet(id: string, options');

    expect(classifySurfaceChange(COMMITTED, changed)).toEqual({
      level: 'major',
      reasons: ['changed PetstoreClient: -getPet(id: number, options?: RequestOptions): Promise<Pet>; +getPet(id: string, options?: RequestOptions): Promise<Pet>;'],
    });
  });

  it('calls an optional field made required major', () => {
    const changed = seeded('    status?: PetStatus;\n}', '    status: PetStatus;\n}');

    expect(classifySurfaceChange(COMMITTED, changed).level).toBe('major');
  });

  it('calls a required member added to an interface major: objects built by callers lack it', () => {
    const added = seeded('    name: string;\n    status?: PetStatus;', '    name: string;\n    tag: string;\n    status?: PetStatus;');

    expect(classifySurfaceChange(COMMITTED, added)).toEqual({
      level: 'major',
      reasons: ['required member added to NewPet: +tag: string;'],
    });
  });

  it('calls an added export minor', () => {
    const added = seeded('// @public\nexport function newIdempotencyKey', '// @public\nexport function deletePet(id: number): Promise<void>;\n\n// @public\nexport function newIdempotencyKey');

    expect(classifySurfaceChange(COMMITTED, added)).toEqual({ level: 'minor', reasons: ['added deletePet'] });
  });

  it('calls an optional member added to an interface, or a method added to a class, minor', () => {
    const optional = seeded('    name: string;\n    status?: PetStatus;', '    name: string;\n    tag?: string;\n    status?: PetStatus;');
    const method = seeded('    listPets(params', '    deletePet(id: number, options?: RequestOptions): Promise<void>;\n    listPets(params');

    expect(classifySurfaceChange(COMMITTED, optional).level).toBe('minor');
    expect(classifySurfaceChange(COMMITTED, method)).toEqual({
      level: 'minor',
      reasons: ['added to PetstoreClient: +deletePet(id: number, options?: RequestOptions): Promise<void>;'],
    });
  });

  it('calls a deprecation minor', () => {
    const deprecated = seeded('    iteratePets(params', '    // @deprecated\n    iteratePets(params');

    expect(classifySurfaceChange(COMMITTED, deprecated)).toEqual({ level: 'minor', reasons: ['deprecation of PetstoreClient changed'] });
  });

  it('calls a change of doc comments alone patch', () => {
    const documented = seeded('// @public\nexport class PetstoreError extends Error {\n    // (undocumented)\n', '// @public\nexport class PetstoreError extends Error {\n');

    expect(classifySurfaceChange(COMMITTED, documented)).toEqual({ level: 'patch', reasons: ['doc comments of PetstoreError changed'] });
  });

  it('takes the gravest of several changes', () => {
    const both = seeded('// @public\nexport function newIdempotencyKey(): string;', '// @public\nexport function newIdempotencyKey(): string;\n\n// @public\nexport function deletePet(id: number): Promise<void>;')
      .replace('getPet(id: number, options', 'getPet(id: string, options');

    const change = classifySurfaceChange(COMMITTED, both);

    expect(change.level).toBe('major');
    expect(change.reasons).toEqual([expect.stringMatching(/^changed PetstoreClient/), 'added deletePet']);
  });

  it('calls a report with one more error code minor and one fewer major (the client inlines ERROR_CODES)', () => {
    const more = seeded('    readonly not_found: 404;\n', '    readonly not_found: 404;\n    readonly gone: 410;\n');
    const fewer = seeded('    readonly not_found: 404;\n', '');

    expect(classifySurfaceChange(COMMITTED, more).level).toBe('minor');
    expect(classifySurfaceChange(COMMITTED, fewer)).toEqual({ level: 'major', reasons: ['changed ERROR_CODES: -readonly not_found: 404;'] });
  });
});
