import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import type Redis from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/app-config';
import { ApiException } from '../errors/api.exception';

/** Length in seconds of each limit's window; `Retry-After` never exceeds the longest. */
export const RATE_LIMIT_WINDOWS = { perKey: 1, authFailures: 60 } as const;

interface Limit {
  limiter: RateLimiterAbstract;
  /** The `RateLimit-Policy` item, e.g. `"default";q=100;w=1`. */
  policy: string;
  name: string;
}

/**
 * Per-key request limits, and per-address limits on failed authentication so that guessing keys is slow.
 * In-process by default; with REDIS_URL the counters are shared by every instance. When Redis cannot be reached,
 * each instance falls back to its own in-process counters (the insurance limiter): requests are never refused
 * because Redis is down, and the limit then holds per instance rather than in total.
 */
export class RateLimits implements OnApplicationShutdown {
  private readonly logger = new Logger(RateLimits.name);
  private readonly perKey?: Limit;
  private readonly perAddressFailures?: Limit;
  private lastRedisWarning = 0;

  /** The Redis client is loaded only when REDIS_URL is set. */
  static async create(config: ConfigService<AppConfig, true>): Promise<RateLimits> {
    const redisUrl = config.get('redisUrl', { infer: true });
    const { default: Redis } = redisUrl ? await import('ioredis') : { default: undefined };
    // Fail fast instead of queueing while disconnected, so that the insurance limiter answers at once.
    const redis = Redis && redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1_000 }) : undefined;
    return new RateLimits(config.get('rateLimitRps', { infer: true }), config.get('authFailuresPerMinute', { infer: true }), redis);
  }

  constructor(
    rps: number,
    failuresPerMinute: number,
    private readonly redis?: Redis,
  ) {
    this.redis?.on('error', (error) => this.warnAboutRedis(error));
    if (rps > 0) this.perKey = this.limit('default', rps, RATE_LIMIT_WINDOWS.perKey);
    if (failuresPerMinute > 0) this.perAddressFailures = this.limit('auth-failures', failuresPerMinute, RATE_LIMIT_WINDOWS.authFailures);
  }

  onApplicationShutdown(): void {
    // disconnect, not quit: quit waits for a connection that may never come.
    this.redis?.disconnect();
  }

  /** False with RATE_LIMIT_RPS=0: no budget to spend, and no RateLimit headers. */
  get perKeyEnabled(): boolean {
    return this.perKey !== undefined;
  }

  /** Takes one request from the key holder's budget: the headers to send, or a 429 once it is spent. */
  async consume(holder: string): Promise<Record<string, string>> {
    if (!this.perKey) return {};
    return this.spend(this.perKey, holder, 'Too many requests for this API key');
  }

  /** 429 when this address has failed to authenticate too often lately. */
  async assertAddressMayAuthenticate(address: string): Promise<void> {
    if (!this.perAddressFailures) return;
    const state = await this.perAddressFailures.limiter.get(address).catch(() => null);
    if (state && state.consumedPoints >= this.perAddressFailures.limiter.points) {
      throw tooMany(this.perAddressFailures, state, 'Too many failed authentications from this address');
    }
  }

  /** Counts a failed authentication; the RateLimit headers of this address's remaining failures, for the 401. */
  async recordAuthenticationFailure(address: string): Promise<Record<string, string>> {
    const limit = this.perAddressFailures;
    if (!limit) return {};
    // The failure that spends the budget is still answered 401; the next request from the address gets the 429.
    return limit.limiter.consume(address).then(
      (state) => headers(limit, state),
      (rejection: unknown) => (rejection instanceof RateLimiterRes ? headers(limit, rejection) : {}),
    );
  }

  private async spend(limit: Limit, key: string, message: string): Promise<Record<string, string>> {
    try {
      return headers(limit, await limit.limiter.consume(key));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw tooMany(limit, rejection, message);
      // Only reached if even the insurance limiter failed: serve rather than refuse.
      this.warnAboutRedis(rejection as Error);
      return {};
    }
  }

  private limit(name: string, points: number, duration: number): Limit {
    const memory = new RateLimiterMemory({ keyPrefix: name, points, duration });
    const limiter = this.redis
      ? new RateLimiterRedis({ storeClient: this.redis, keyPrefix: `petstore:rl:${name}`, points, duration, insuranceLimiter: memory })
      : memory;
    return { limiter, name, policy: `"${name}";q=${points};w=${duration}` };
  }

  private warnAboutRedis(error: Error): void {
    if (Date.now() - this.lastRedisWarning < 30_000) return;
    this.lastRedisWarning = Date.now();
    this.logger.warn(`Redis unavailable (${error.message}); rate limits are counted per instance until it returns`);
  }
}

const secondsUntilReset = (state: RateLimiterRes) => Math.max(1, Math.ceil(state.msBeforeNext / 1000));

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
function headers(limit: Limit, state: RateLimiterRes): Record<string, string> {
  return {
    'ratelimit-policy': limit.policy,
    ratelimit: `"${limit.name}";r=${Math.max(0, state.remainingPoints)};t=${secondsUntilReset(state)}`,
  };
}

function tooMany(limit: Limit, state: RateLimiterRes, message: string): ApiException {
  const wait = secondsUntilReset(state);
  return new ApiException('rate_limited', `${message}; retry in ${wait} s.`, { ...headers(limit, state), 'retry-after': String(wait) });
}
