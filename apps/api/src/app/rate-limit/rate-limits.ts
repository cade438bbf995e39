import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import type Redis from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '../config/app-config';
import { ApiException } from '../errors/api-exception';
import { withDeadline } from '../timing/deadline';
import { RedisCircuit } from './redis-circuit';

/** Length in seconds of each limit's window; `Retry-After` never exceeds the longest. */
export const RATE_LIMIT_WINDOWS = { perKey: 1, authFailures: 60 } as const;

interface Limit {
  /** Counted in this process: always there, and what counts while Redis is away. */
  local: RateLimiterMemory;
  /** Counted in Redis, shared by every instance; only with REDIS_URL. */
  shared?: RateLimiterRedis;
  /** The `RateLimit-Policy` item, e.g. `"default";q=100;w=1`. */
  policy: string;
  name: string;
}

/** Misses in a row that stop the limits asking Redis, and the pause between probes while they do not. */
const REDIS_MISSES_TO_OPEN = 3;
const REDIS_PROBE_EVERY_MS = 500;

/**
 * Per-key request limits, and per-address limits on failed authentication so that guessing keys is slow.
 * In-process by default; with REDIS_URL the counters are shared by every instance. Redis is given a short budget per
 * call (RATE_LIMIT_REDIS_TIMEOUT_MS): a call it does not answer in time, or refuses, is counted in-process, and after a
 * few such misses the limits stop asking Redis until a probe finds it answering again (RedisCircuit). Requests are
 * never refused or held because Redis is away; the limit then holds per instance rather than in total.
 */
export class RateLimits implements OnApplicationShutdown {
  private readonly logger = new Logger(RateLimits.name);
  private readonly perKey?: Limit;
  private readonly perAddressFailures?: Limit;
  private readonly circuit?: RedisCircuit;
  /** Counts made in this process although REDIS_URL is set (Redis missed, or the circuit is open): requests the shared limit did not see. */
  countedInProcess = 0;

  /** The Redis client is loaded only when REDIS_URL is set. */
  static async create(config: ConfigService<AppConfig, true>): Promise<RateLimits> {
    const redisUrl = config.get('redisUrl', { infer: true });
    // Stryker disable next-line ObjectLiteral: `{}` has no default either.
    const { default: Redis } = redisUrl ? await import('ioredis') : { default: undefined };
    // Nothing queues while disconnected: the call fails at once and is counted in-process.
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a queued call is bounded by the budget all the same; it only waits longer.
    const redis = Redis && redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 1_000 }) : undefined;
    return new RateLimits(
      config.get('rateLimitRps', { infer: true }),
      config.get('authFailuresPerMinute', { infer: true }),
      redis,
      config.get('redisTimeoutMs', { infer: true }),
    );
  }

  constructor(
    rps: number,
    failuresPerMinute: number,
    private readonly redis: Redis | undefined,
    /** Each call's budget in Redis (RATE_LIMIT_REDIS_TIMEOUT_MS). */
    private readonly redisBudgetMs: number,
  ) {
    if (redis) {
      // Every failed reconnection emits an error; the circuit says what matters, once per change.
      redis.on('error', () => undefined);
      this.circuit = new RedisCircuit({
        missesToOpen: REDIS_MISSES_TO_OPEN,
        probeEveryMs: REDIS_PROBE_EVERY_MS,
        probe: () => this.withinBudget(redis.ping()),
        onChange: (shared, reason) => {
          if (shared) {
            this.logger.log(`Redis answers again (${reason}); rate limits are shared by every instance again`);
            return;
          }
          this.logger.warn(`Redis unavailable (${reason}); rate limits are counted per instance until it answers again`);
          // A connection that went silent may never fail on its own: a new one answers as soon as Redis does.
          redis.disconnect(true);
        },
      });
    }
    if (rps > 0) this.perKey = this.limit('default', rps, RATE_LIMIT_WINDOWS.perKey);
    if (failuresPerMinute > 0) this.perAddressFailures = this.limit('auth-failures', failuresPerMinute, RATE_LIMIT_WINDOWS.authFailures);
  }

  onApplicationShutdown(): void {
    this.circuit?.stop();
    // disconnect, not quit: quit waits for a connection that may never come.
    this.redis?.disconnect();
  }

  /** False with RATE_LIMIT_RPS=0: no budget to spend, and no RateLimit headers. */
  get perKeyEnabled(): boolean {
    return this.perKey !== undefined;
  }

  /** Whether REDIS_URL is set: limits are then shared by every instance while Redis answers. */
  get sharedStoreConfigured(): boolean {
    return this.circuit !== undefined;
  }

  /** Where the limits are counted now: in Redis (shared by every instance) or in this process. */
  get store(): 'redis' | 'in_process' {
    return this.circuit?.shared ? 'redis' : 'in_process';
  }

  /** Takes one request from the key holder's budget: the headers to send, or a 429 once it is spent. */
  async consume(holder: string): Promise<Record<string, string>> {
    const limit = this.perKey;
    if (!limit) return {};
    try {
      return headers(limit, await this.count(limit, (limiter) => limiter.consume(holder)));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw tooMany(limit, rejection, 'key');
      throw rejection;
    }
  }

  /** 429 when this address has failed to authenticate too often lately. */
  async assertAddressMayAuthenticate(address: string): Promise<void> {
    const limit = this.perAddressFailures;
    if (!limit) return;
    const state = await this.count(limit, (limiter) => limiter.get(address));
    if (state && state.consumedPoints >= limit.local.points) throw tooMany(limit, state, 'address');
  }

  /** Counts a failed authentication; the RateLimit headers of this address's remaining failures, for the 401. */
  async recordAuthenticationFailure(address: string): Promise<Record<string, string>> {
    const limit = this.perAddressFailures;
    if (!limit) return {};
    // The failure that spends the budget is still answered 401; the next request from the address gets the 429.
    return this.count(limit, (limiter) => limiter.consume(address)).then(
      (state) => headers(limit, state),
      (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) return headers(limit, rejection);
        throw rejection;
      },
    );
  }

  /**
   * Runs `use` on the shared counters while the circuit lets it, else on this process's. A call Redis does not answer
   * (past its budget, or refused) is counted in-process at once; a 429 from Redis is an answer and passes through.
   */
  private async count<T>(limit: Limit, use: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    if (limit.shared && this.circuit?.shared) {
      try {
        const result = await this.withinBudget(use(limit.shared));
        this.circuit.answered();
        return result;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          this.circuit.answered();
          throw rejection;
        }
        this.circuit.missed(rejection as Error);
      }
    }
    if (this.circuit) this.countedInProcess += 1;
    return use(limit.local);
  }

  /**
   * The budget as a deadline of our own rather than ioredis's commandTimeout, whose timer fires before a reply already
   * read off the socket is handled when the event loop was busy: under load, that took answered calls for misses.
   */
  private withinBudget<T>(call: Promise<T>): Promise<T> {
    return withDeadline(call, this.redisBudgetMs, () => new Error(`no answer from Redis within ${this.redisBudgetMs} ms`));
  }

  private limit(name: string, points: number, duration: number): Limit {
    const local = new RateLimiterMemory({ keyPrefix: name, points, duration });
    const shared = this.redis ? new RateLimiterRedis({ storeClient: this.redis, keyPrefix: `petstore:rl:${name}`, points, duration }) : undefined;
    return { local, shared, name, policy: `"${name}";q=${points};w=${duration}` };
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

const TOO_MANY = { key: 'Too many requests for this API key', address: 'Too many failed authentications from this address' } as const;

/** The 429 of the per-key limit (`key`) or of an address's failed authentications, `waitSeconds` before it resets. */
export const rateLimited = (which: keyof typeof TOO_MANY, waitSeconds: number, headers: Record<string, string> = {}) =>
  new ApiException('rate_limited', `${TOO_MANY[which]}; retry in ${waitSeconds} s.`, { ...headers, 'retry-after': String(waitSeconds) });

function tooMany(limit: Limit, state: RateLimiterRes, which: keyof typeof TOO_MANY): ApiException {
  return rateLimited(which, secondsUntilReset(state), headers(limit, state));
}
