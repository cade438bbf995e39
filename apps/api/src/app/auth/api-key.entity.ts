import type { Scope } from '@petstore/contract';
import { Column, Entity, Generated, PrimaryColumn } from 'typeorm';
import { safeInteger } from '../database/safe-integer';
import { scopeList } from './scope-list';

const nullableInteger = { type: 'bigint', nullable: true, transformer: safeInteger } as const;

/**
 * A stored API key: its SHA-256 (never the key), a name, what it may do, and its life. Times are epoch milliseconds,
 * which both databases store the same way.
 */
/** A key's name is at most this many characters (varchar counts characters, not bytes, on PostgreSQL). */
export const API_KEY_NAME_MAX_CHARACTERS = 100;

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'bigint', transformer: safeInteger })
  @Generated('increment')
  id!: number;

  @Column({ type: 'varchar', length: API_KEY_NAME_MAX_CHARACTERS })
  name!: string;

  /** Hex SHA-256 of the key. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash!: string;

  /** The start of the key, to tell keys apart in listings. */
  @Column({ name: 'shown_part', type: 'varchar', length: 16 })
  shownPart!: string;

  /** Stored space-separated, as OAuth writes a `scope`. */
  @Column({ type: 'varchar', length: 100, transformer: scopeList })
  scopes!: Scope[];

  /** The key this one replaced (`keys rotate`); unique, so that a key is replaced once. */
  @Column({ name: 'replaces_id', ...nullableInteger })
  replacesId!: number | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: safeInteger })
  createdAt!: number;

  @Column({ name: 'expires_at', ...nullableInteger })
  expiresAt!: number | null;

  @Column({ name: 'revoked_at', ...nullableInteger })
  revokedAt!: number | null;

  @Column({ name: 'last_used_at', ...nullableInteger })
  lastUsedAt!: number | null;
}
