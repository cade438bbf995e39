import { PetStatus } from '@petstore/contract';
import { decide } from './claim-decision';
import type { IdempotencyClaim } from './idempotency-key';
import { type StoredClaim, toStoredClaim } from './idempotency-row';

const pet = (name: string) => ({ name, categoryId: 1, status: PetStatus.Available });
const claim = (key: string, createdAt = Date.now()): IdempotencyClaim => ({ holder: 'env:a', key, fingerprint: `fp-${key}`, createdAt });
// Read as PostgreSQL gives them: 64-bit columns as strings.
const stored = (key: string, createdAt: number, petId = 7): StoredClaim =>
  toStoredClaim({ holder: 'env:a', key, fingerprint: `fp-${key}`, petId: String(petId), createdAt: String(createdAt) });

describe(decide.name, () => {
  const now = Date.now();

  it('creates pets without keys and with new keys', () => {
    expect(decide([{ pet: pet('a') }, { pet: pet('b'), claim: claim('b', now) }], [])).toEqual(['create', 'create']);
  });

  it('answers a key stored within 24 hours from its row, for every create of the batch that sends it', () => {
    const batch = [{ pet: pet('a'), claim: claim('k', now) }, { pet: pet('b'), claim: claim('k', now) }];
    const found = { outcome: 'stored', fingerprint: 'fp-k', petId: 7 };
    expect(decide(batch, [stored('k', now - 1_000)])).toEqual([found, found]);
  });

  it('creates anew for a key stored 24 hours or more before', () => {
    const day = 86_400_000;
    expect(decide([{ pet: pet('a'), claim: claim('k', now) }], [stored('k', now - day)])).toEqual(['create']);
    expect(decide([{ pet: pet('a'), claim: claim('k', now) }], [stored('k', now - day + 1)])).toEqual([{ outcome: 'stored', fingerprint: 'fp-k', petId: 7 }]);
  });

  it('answers a later create of the batch with a key an earlier one claims as in use', () => {
    const batch = [{ pet: pet('a'), claim: claim('k', now) }, { pet: pet('b') }, { pet: pet('c'), claim: claim('k', now) }];
    expect(decide(batch, [])).toEqual(['create', 'create', { outcome: 'in_use' }]);
  });

  it('answers a key another transaction holds as in use, even when it is stored', () => {
    const batch = [{ pet: pet('a'), claim: claim('k', now) }, { pet: pet('b'), claim: claim('n', now) }];
    expect(decide(batch, [stored('k', now)], new Set(['env:a\nk']))).toEqual([{ outcome: 'in_use' }, 'create']);
  });

  it('tells keys of different holders apart', () => {
    const theirs = { pet: pet('a'), claim: { ...claim('k', now), holder: 'env:b' } };
    expect(decide([theirs], [stored('k', now)])).toEqual(['create']);
  });
});
