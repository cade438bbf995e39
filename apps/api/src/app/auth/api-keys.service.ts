import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { type Scope, SCOPES } from '@petstore/contract';
import { timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../config/app-config';
import { DatabaseConnection } from '../database/database-connection';
import { ApiKeyStore, isActive } from './api-key.store';
import { hashApiKey } from './api-key';

/** How long a lookup of a stored key is trusted: a revoked or expired key is refused within this, on every instance. */
export const KEY_CACHE_MS = 2_000;
/** Lookups kept; the oldest go first, so that guessed keys cannot grow the cache without bound. */
export const KEY_CACHE_ENTRIES = 10_000;
/** last_used_at is written at most this often per key, so that authentication is not a write per request. */
const TOUCH_EVERY_MS = 60_000;

export type KeyRefusal = 'unknown' | 'revoked' | 'expired';

/** An accepted key: who holds it (for rate limiting, never the key itself) and what it may do. */
export interface KeyHolder {
  holder: string;
  scopes: readonly Scope[];
}

interface CachedLookup {
  checkedAt: number;
  record: { id: number; expiresAt: number | null; revokedAt: number | null; scopes: readonly Scope[] } | null;
}

/**
 * Decides whether a bearer key is accepted, and names its holder for rate limiting (never by the key itself).
 * Keys from API_KEYS are compared digest to digest in constant time against every one of them; stored keys are
 * looked up by their SHA-256, so the lookup's timing says nothing about how close a guess was.
 */
@Injectable()
export class ApiKeysService {
  /** Keys from API_KEYS: their digests, and the holder names derived from them once. They hold every scope. */
  private readonly configured: { digest: Buffer; holder: string }[];
  private readonly cache = new Map<string, CachedLookup>();
  private readonly touched = new Map<number, number>();

  constructor(
    config: ConfigService<AppConfig, true>,
    private readonly store: ApiKeyStore,
    private readonly database: DatabaseConnection,
  ) {
    this.configured = config.get('apiKeys', { infer: true }).map((key) => {
      const digest = hashApiKey(key);
      return { digest, holder: `env:${digest.toString('hex').slice(0, 16)}` };
    });
  }

  /** The holder of the key (`env:…` or `key:<id>`), or undefined when the key is not accepted. */
  async authenticate(presented: string, now = Date.now()): Promise<string | undefined> {
    const checked = await this.check(presented, now);
    return 'holder' in checked ? checked.holder : undefined;
  }

  /** The holder of the key and its scopes, or why it is refused (for the metrics; a client is told only that it is refused). */
  async check(presented: string, now = Date.now()): Promise<KeyHolder | { refused: KeyRefusal }> {
    const digest = hashApiKey(presented);
    let configured: string | undefined;
    for (const known of this.configured) if (timingSafeEqual(known.digest, digest)) configured = known.holder;
    if (configured !== undefined) return { holder: configured, scopes: SCOPES };

    const { record } = await this.lookup(digest.toString('hex'), now);
    if (!record) return { refused: 'unknown' };
    if (!isActive(record, now)) return { refused: record.revokedAt !== null ? 'revoked' : 'expired' };
    this.touch(record.id, now);
    return { holder: `key:${record.id}`, scopes: record.scopes };
  }

  private async lookup(hex: string, now: number): Promise<CachedLookup> {
    const cached = this.cache.get(hex);
    if (cached && now - cached.checkedAt < KEY_CACHE_MS) return cached;
    const found = await this.database.run(() => this.store.findByHash(hex));
    const entry: CachedLookup = { checkedAt: now, record: found && { id: found.id, expiresAt: found.expiresAt, revokedAt: found.revokedAt, scopes: found.scopes } };
    this.cache.delete(hex);
    this.cache.set(hex, entry);
    // Guessed keys must not grow the cache without bound: drop the oldest entries.
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= KEY_CACHE_ENTRIES) break;
      this.cache.delete(oldest);
    }
    return entry;
  }

  private touch(id: number, now: number): void {
    if (now - (this.touched.get(id) ?? -Infinity) < TOUCH_EVERY_MS) return;
    this.touched.set(id, now);
    // Best effort: a failed write of last use never fails the request.
    void this.database.run(() => this.store.touch(id, now)).catch(() => undefined);
  }
}
