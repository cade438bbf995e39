import { PetStatus } from '@petstore/contract';
import { IDEMPOTENCY_KEY_TTL_MS, type IdempotencyClaim } from '../../src/app/pets/idempotency/idempotency-key';
import type { PetStore } from '../../src/app/pets/pet.store';

export const newPet = (name: string) => ({ name, categoryId: 1, status: PetStatus.Available });
export const claimOf = (key: string, fingerprint = `fp-${key}`, createdAt = Date.now()): IdempotencyClaim => ({ holder: 'env:a', key, fingerprint, createdAt });

/** A database's batch writer on a fresh, migrated database, and what that database holds, read back as numbers. */
export interface BatchWriterUnderTest {
  write: PetStore['writeBatch'];
  storedPets(): Promise<Array<{ id: number; name: string }>>;
  storedClaims(): Promise<Array<{ key: string; petId: number; createdAt: number }>>;
}

/**
 * The rules a batch keeps on every database (PetStore.writeBatch, idempotency/claim-decision.ts), each test on a fresh
 * database: one key per batch creates once, a stored key is answered from its row, an expired one is replaced, and a
 * failed batch stores nothing. `failure` is what the database says of a pet its CHECK constraint refuses.
 */
export function itKeepsTheBatchRules(connect: () => Promise<BatchWriterUnderTest>, failure: RegExp): void {
  const [pet, claim] = [newPet, claimOf];

  it('creates the first of two creates with one key and answers the second as in use', async () => {
    const sut = await connect();
    const results = await sut.write([{ pet: pet('First'), claim: claim('k') }, { pet: pet('Second'), claim: claim('k') }]);
    expect(results).toEqual([{ outcome: 'created', pet: { ...pet('First'), id: 1 } }, { outcome: 'in_use' }]);
    expect(await sut.storedPets()).toEqual([{ id: 1, name: 'First' }]);
    expect(await sut.storedClaims()).toEqual([{ key: 'k', petId: 1, createdAt: expect.any(Number) }]);
  });

  it('answers a stored key from the table without inserting, for every create of the batch that sends it', async () => {
    const sut = await connect();
    await sut.write([{ pet: pet('Original'), claim: claim('k', 'fp-original') }]);
    const results = await sut.write([
      { pet: pet('Retry'), claim: claim('k', 'fp-retry') },
      { pet: pet('New'), claim: claim('n') },
      { pet: pet('Again'), claim: claim('k', 'fp-again') },
    ]);
    expect(results).toEqual([
      { outcome: 'stored', fingerprint: 'fp-original', petId: 1 },
      { outcome: 'created', pet: { ...pet('New'), id: 2 } },
      { outcome: 'stored', fingerprint: 'fp-original', petId: 1 },
    ]);
    expect(await sut.storedPets()).toEqual([
      { id: 1, name: 'Original' },
      { id: 2, name: 'New' },
    ]);
  });

  it('creates anew for a key stored more than 24 hours before, and replaces its claim', async () => {
    const sut = await connect();
    const now = Date.now();
    await sut.write([{ pet: pet('Old'), claim: claim('k', 'fp', now - IDEMPOTENCY_KEY_TTL_MS) }]);
    expect(await sut.write([{ pet: pet('Renewed'), claim: claim('k', 'fp', now) }])).toEqual([{ outcome: 'created', pet: { ...pet('Renewed'), id: 2 } }]);
    expect(await sut.storedClaims()).toEqual([{ key: 'k', petId: 2, createdAt: now }]);
  });

  it('stores nothing of a batch that fails, and leaves no transaction open', async () => {
    const sut = await connect();
    const invalid = { ...pet('Invalid'), status: 'lost' as PetStatus };
    await expect(sut.write([{ pet: pet('Valid'), claim: claim('v') }, { pet: invalid, claim: claim('i') }])).rejects.toThrow(failure);
    expect(await sut.storedPets()).toEqual([]);
    expect(await sut.storedClaims()).toEqual([]);
    expect(await sut.write([{ pet: pet('Valid'), claim: claim('v') }])).toMatchObject([{ outcome: 'created' }]);
  });
}
