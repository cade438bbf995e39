import type { Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { generateApiKey, hashApiKey, shownPart } from './api-key';

/**
 * The `api_keys` table: the only place with its queries. Used by the service (through DatabaseConnection) and by
 * the key command (src/keys.ts, `npm run keys`), which works on the configured database directly.
 */
export class ApiKeyStore {
  constructor(private readonly keys: Repository<ApiKeyEntity>) {}

  /** Creates a key and stores its hash; the key itself is returned once, here, and never again. */
  async issue(name: string, expiresAt: number | null, now = Date.now()): Promise<{ key: string; record: ApiKeyEntity }> {
    const key = generateApiKey();
    const record: Omit<ApiKeyEntity, 'id'> = {
      name,
      keyHash: hashApiKey(key).toString('hex'),
      shownPart: shownPart(key),
      createdAt: now,
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    };
    const result = await this.keys.insert(record);
    return { key, record: { ...record, id: Number(result.identifiers[0].id) } };
  }

  list(): Promise<ApiKeyEntity[]> {
    return this.keys.find({ order: { id: 'ASC' } });
  }

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ keyHash });
  }

  /** Revokes by id or by the shown start of the key; resolves to the revoked record, or null if none matched. */
  async revoke(idOrShownPart: string, now = Date.now()): Promise<ApiKeyEntity | null> {
    const record = /^\d+$/.test(idOrShownPart)
      ? await this.keys.findOneBy({ id: Number(idOrShownPart) })
      : await this.keys.findOneBy({ shownPart: idOrShownPart });
    if (!record) return null;
    if (record.revokedAt === null) await this.keys.update({ id: record.id }, { revokedAt: now });
    return { ...record, revokedAt: record.revokedAt ?? now };
  }

  async touch(id: number, now = Date.now()): Promise<void> {
    await this.keys.update({ id }, { lastUsedAt: now });
  }
}

/** Whether a stored key may be used at `now`. */
export const isActive = (record: Pick<ApiKeyEntity, 'revokedAt' | 'expiresAt'>, now: number) =>
  record.revokedAt === null && (record.expiresAt === null || record.expiresAt > now);
