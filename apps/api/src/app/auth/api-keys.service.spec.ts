import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import type { DatabaseConnection } from '../database/database-connection';
import { hashApiKey } from './api-key';
import type { ApiKeyEntity } from './api-key.entity';
import type { ApiKeyStore } from './api-key.store';
import { ApiKeysService, KEY_CACHE_ENTRIES, KEY_CACHE_MS } from './api-keys.service';

describe(ApiKeysService.name, () => {
  const configured = ['pk_first_key_0123456789', 'pk_second_key_0123456789'];
  const storedKey = 'pk_stored_0123456789abcdef';
  let record: ApiKeyEntity;
  let store: { findByHash: jest.Mock; touch: jest.Mock };
  let sut: ApiKeysService;

  beforeEach(() => {
    record = {
      id: 7,
      name: 'ci',
      keyHash: hashApiKey(storedKey).toString('hex'),
      shownPart: storedKey.slice(0, 12),
      scopes: ['pets:read'],
      replacesId: null,
      createdAt: 0,
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    };
    store = {
      findByHash: jest.fn(async (hash: string) => (hash === record.keyHash ? { ...record } : null)),
      touch: jest.fn(async () => undefined),
    };
    const config = { get: () => configured } as unknown as ConfigService<AppConfig, true>;
    const database = { run: (operation: () => Promise<unknown>) => operation() } as unknown as DatabaseConnection;
    sut = new ApiKeysService(config, store as unknown as ApiKeyStore, database);
  });

  it('accepts every configured key without touching the database, naming the holder by digest', async () => {
    for (const key of configured) expect(await sut.authenticate(key)).toMatch(/^env:[0-9a-f]{16}$/);
    expect(store.findByHash).not.toHaveBeenCalled();
    // Each key is its own holder (limits and idempotency keys are per holder), the same one on every request.
    const holders = await Promise.all(configured.map((key) => sut.authenticate(key)));
    expect(new Set(holders).size).toBe(configured.length);
    expect(await Promise.all(configured.map((key) => sut.authenticate(key)))).toEqual(holders);
  });

  it('accepts a stored key, naming the holder by id and recording its use', async () => {
    expect(await sut.authenticate(storedKey, 1_000)).toBe('key:7');
    expect(store.findByHash).toHaveBeenCalledWith(record.keyHash);
    expect(store.touch).toHaveBeenCalledWith(7, 1_000);
  });

  it('gives configured keys every scope, and a stored key the scopes it was issued with', async () => {
    expect(await sut.check(configured[0])).toMatchObject({ scopes: ['pets:read', 'pets:write'] });
    expect(await sut.check(storedKey)).toEqual({ holder: 'key:7', scopes: ['pets:read'] });
  });

  it.each([
    ['an empty key', ''],
    ['a configured key minus its last character', 'pk_first_key_012345678'],
    ['a configured key plus a character', 'pk_first_key_01234567890'],
    ['a configured key in capitals', 'PK_FIRST_KEY_0123456789'],
    ['a 10,000-character key', 'x'.repeat(10_000)],
  ])('refuses %s', async (_label, key) => {
    expect(await sut.authenticate(key)).toBeUndefined();
  });

  it('refuses a stored key once revoked or expired, within the cache time', async () => {
    // docs/api.md promises 2 seconds, on every instance.
    expect(KEY_CACHE_MS).toBeLessThanOrEqual(2_000);
    expect(await sut.authenticate(storedKey, 0)).toBe('key:7');
    record.revokedAt = 10;
    expect(await sut.authenticate(storedKey, KEY_CACHE_MS - 1)).toBe('key:7');
    expect(await sut.authenticate(storedKey, KEY_CACHE_MS)).toBeUndefined();
    record.revokedAt = null;
    record.expiresAt = 3 * KEY_CACHE_MS;
    expect(await sut.authenticate(storedKey, 3 * KEY_CACHE_MS)).toBeUndefined();
  });

  it('says why a stored key is refused', async () => {
    expect(await sut.check('pk_never_issued_0123456789', 0)).toEqual({ refused: 'unknown' });
    record.revokedAt = 5;
    expect(await sut.check(storedKey, 10)).toEqual({ refused: 'revoked' });
    record.revokedAt = null;
    record.expiresAt = 5 * KEY_CACHE_MS;
    expect(await sut.check(storedKey, 5 * KEY_CACHE_MS)).toEqual({ refused: 'expired' });
  });

  it('looks a stored key up once per cache time, not once per request', async () => {
    await sut.authenticate(storedKey, 1_000);
    await sut.authenticate(storedKey, 1_000 + KEY_CACHE_MS - 1);
    expect(store.findByHash).toHaveBeenCalledTimes(1);
    await sut.authenticate(storedKey, 1_000 + KEY_CACHE_MS);
    expect(store.findByHash).toHaveBeenCalledTimes(2);
  });

  it('keeps at most KEY_CACHE_ENTRIES lookups, dropping the least recently looked up', async () => {
    // A full cache: the stored key's lookup first, then guesses.
    const guesses = Array.from({ length: KEY_CACHE_ENTRIES - 1 }, (_, i) => `pk_guess_${i}`);
    await sut.check(storedKey, 0);
    for (const guess of guesses) await sut.check(guess, 0);
    // The stored key's lookup has expired and is made again: now the most recent, so the first guess is the oldest.
    await sut.check(storedKey, KEY_CACHE_MS);
    await sut.check('pk_one_more_guess', KEY_CACHE_MS);
    store.findByHash.mockClear();
    await sut.check(storedKey, KEY_CACHE_MS);
    await sut.check(guesses[1], 1);
    expect(store.findByHash).not.toHaveBeenCalled();
    await sut.check(guesses[0], 1);
    expect(store.findByHash).toHaveBeenCalledTimes(1);
  });

  it('writes last use at most once a minute', async () => {
    await sut.authenticate(storedKey, 0);
    await sut.authenticate(storedKey, 30_000);
    await sut.authenticate(storedKey, 59_999);
    await sut.authenticate(storedKey, 60_000);
    await sut.authenticate(storedKey, 119_999);
    expect(store.touch.mock.calls).toEqual([[7, 0], [7, 60_000]]);
  });

  it('keeps no key in memory, only digests', () => {
    expect(JSON.stringify(sut)).not.toContain('pk_first');
  });
});
