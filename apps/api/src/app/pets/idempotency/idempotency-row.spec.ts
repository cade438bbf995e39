import { CLAIM_COLUMN_NAMES, CLAIM_KEY_COLUMNS, CLAIM_REPLACED_COLUMNS, claimColumnValues, claimValues, storedClaim, toStoredClaim } from './idempotency-row';

describe('idempotency rows', () => {
  const row = storedClaim({ holder: 'env:a', key: 'k', fingerprint: 'fp', createdAt: 1_700_000_000_000 }, 7);

  it('names the columns of the migrated table, the primary key apart from the columns an upsert replaces', () => {
    expect(CLAIM_COLUMN_NAMES).toEqual(['holder', 'idempotency_key', 'fingerprint', 'pet_id', 'created_at']);
    expect(CLAIM_KEY_COLUMNS).toBe('holder, idempotency_key');
    expect(CLAIM_REPLACED_COLUMNS).toEqual(['fingerprint', 'pet_id', 'created_at']);
  });

  it('gives a row built from a create its values in the order of the columns, by row and by column', () => {
    expect(claimValues(row)).toEqual(['env:a', 'k', 'fp', 7, 1_700_000_000_000]);
    expect(claimColumnValues([row, { ...row, key: 'n' }])).toEqual([['env:a', 'env:a'], ['k', 'n'], ['fp', 'fp'], [7, 7], [1_700_000_000_000, 1_700_000_000_000]]);
  });

  it('reads a selected row back, 64-bit columns given as strings included', () => {
    expect(toStoredClaim({ holder: 'env:a', key: 'k', fingerprint: 'fp', petId: '7', createdAt: '1700000000000' })).toEqual(row);
  });
});
