import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../config/app-config';

const digest = (key: string) => createHash('sha256').update(key, 'utf8').digest();

/**
 * The keys accepted as bearer tokens. Only SHA-256 digests are kept in memory, and a presented key is compared
 * digest to digest with a constant-time comparison against every known key, so neither the comparison nor the
 * number of keys checked depends on how much of a key an attacker guessed right.
 */
@Injectable()
export class ApiKeysService {
  private readonly digests: Buffer[];

  constructor(config: ConfigService<AppConfig, true>) {
    this.digests = config.get('apiKeys', { infer: true }).map(digest);
  }

  isValid(presented: string): boolean {
    const candidate = digest(presented);
    let found = false;
    for (const known of this.digests) found = timingSafeEqual(known, candidate) || found;
    return found;
  }
}
