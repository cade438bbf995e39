import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { API_PREFIX } from '@petstore/contract';
import { z } from 'zod';
import { FILE_SECRETS, type FileSecret, readFileSecrets } from './file-secrets';
import { parseRetrySchedule, STANDARD_RETRY_SCHEDULE_SECONDS } from './webhook-retry-schedule';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

// Blank values count as unset, so `PORT=` in an env file means the default rather than an error.
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), schema);

const integer = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^[0-9]+$/, `must be an integer from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `must be an integer from ${min} to ${max}`).max(max, `must be an integer from ${min} to ${max}`));

/** Longest PUBLIC_BASE_URL or STAGING_BASE_URL: the OpenAPI document bounds the `Link` headers built from it. */
export const BASE_URL_MAX_LENGTH = 2000;

const baseUrl = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    const path = url?.pathname.replace(/\/+$/, '') ?? '';
    if (!url || !['http:', 'https:'].includes(url.protocol) || !path.endsWith(API_PREFIX) || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: `must be an absolute http(s) URL ending in ${API_PREFIX} (got "${raw}")` });
      return z.NEVER;
    }
    const normalised = `${url.origin}${path}`;
    if (normalised.length > BASE_URL_MAX_LENGTH) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${BASE_URL_MAX_LENGTH} characters long` });
      return z.NEVER;
    }
    return normalised;
  });

type DatabaseTarget = { type: 'sqlite'; path: string } | { type: 'postgres'; url: string; migrationUrl?: string };

const databaseUrl = z
  .string()
  .trim()
  .transform((raw, ctx): DatabaseTarget => {
    if (raw.startsWith('sqlite:') && raw.length > 'sqlite:'.length) return { type: 'sqlite', path: raw.slice(7) };
    if (/^postgres(ql)?:\/\/[^/]/.test(raw) && URL.canParse(raw)) return { type: 'postgres', url: raw };
    ctx.addIssue({ code: 'custom', message: 'must be sqlite:<path> or postgres://user@host:port/database' });
    return z.NEVER;
  });

const corsOrigins = z
  .string()
  .transform((raw) => raw.split(',').map((origin) => origin.trim()).filter(Boolean))
  .refine((origins) => origins.every((origin) => URL.canParse(origin) && new URL(origin).origin === origin), {
    message: 'must be comma-separated origins such as https://app.example.com (scheme, host and port only)',
  });

// Keys travel as RFC 6750 bearer tokens (token68); the message never repeats a key.
const apiKeys = z
  .string()
  .transform((raw) => raw.split(',').map((key) => key.trim()).filter(Boolean))
  .refine((keys) => keys.every((key) => key.length >= 16 && /^[A-Za-z0-9\-._~+/]+=*$/.test(key)), {
    message: 'must be comma-separated keys of at least 16 characters from A-Z a-z 0-9 - . _ ~ + / (values not shown)',
  });

const databaseFields = z.object({
  DATABASE_URL: optional(databaseUrl.default({ type: 'sqlite', path: './data/petstore.sqlite' })),
  // The server itself, where DATABASE_URL names a pooler whose query timeout would cut a migration's long steps.
  DATABASE_MIGRATION_URL: optional(databaseUrl.optional()),
  DATABASE_POOL_SIZE: optional(integer(1, 1000).default(10)),
  DATABASE_CONNECT_TIMEOUT_MS: optional(integer(100, 600_000).default(5000)),
  DATABASE_STATEMENT_TIMEOUT_MS: optional(integer(100, 600_000).default(5000)),
});

const migrationUrlFits = (env: z.output<typeof databaseFields>) =>
  !env.DATABASE_MIGRATION_URL || (env.DATABASE_MIGRATION_URL.type === 'postgres' && env.DATABASE_URL.type === 'postgres');
const MIGRATION_URL_PROBLEM = {
  path: ['DATABASE_MIGRATION_URL'],
  message: 'must be a postgres:// URL, and only beside a postgres:// DATABASE_URL (the same database, reached directly)',
};

const databaseSchema = databaseFields.refine(migrationUrlFits, MIGRATION_URL_PROBLEM);

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => value === 'true' || value === 'false', 'must be true or false')
  .transform((value) => value === 'true');

const retrySchedule = z.string().transform((raw, ctx) => {
  try {
    return parseRetrySchedule(raw);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `must be comma-separated seconds (${(error as Error).message})` });
    return z.NEVER;
  }
});

/** Shared with `npm run webhooks`, so that registering and delivering follow the same rules. */
const webhookSchema = z.object({
  WEBHOOK_ALLOW_INSECURE: optional(flag.default(false)),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: optional(flag.default(false)),
  WEBHOOK_RETRY_SCHEDULE: optional(retrySchedule.default([...STANDARD_RETRY_SCHEDULE_SECONDS])),
  WEBHOOK_TIMEOUT_MS: optional(integer(100, 60_000).default(10_000)),
});

/** Beside the built service, whatever the working directory: this file is bundled into main.js. */
export const BUILT_STOREFRONT_DIR = resolve(__dirname, '../storefront');

const envSchema = databaseFields
  .extend(webhookSchema.shape)
  .extend({
    PORT: optional(integer(0, 65535).default(3000)),
    HOST: optional(z.string().trim().default('0.0.0.0')),
    API_KEYS: optional(apiKeys.default([])),
    PUBLIC_BASE_URL: optional(baseUrl.optional()),
    STAGING_BASE_URL: optional(baseUrl.optional()),
    RATE_LIMIT_RPS: optional(integer(0, 1_000_000).default(100)),
    RATE_LIMIT_AUTH_FAILURES: optional(integer(0, 1_000_000).default(30)),
    CORS_ORIGINS: optional(corsOrigins.default([])),
    REDIS_URL: optional(z.string().trim().regex(/^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL').optional()),
    RATE_LIMIT_REDIS_TIMEOUT_MS: optional(integer(1, 10_000).default(50)),
    EVENT_STREAMS_PER_KEY: optional(integer(1, 1_000_000).default(20)),
    EVENT_STREAMS_MAX: optional(integer(1, 1_000_000).default(2_000)),
    LOG_LEVEL: optional(z.enum(LOG_LEVELS).default('info')),
    NODE_ENV: optional(z.enum(['development', 'production', 'test']).default('development')),
    METRICS_PORT: optional(integer(0, 65535).default(9464)),
    METRICS_HOST: optional(z.string().trim().default('127.0.0.1')),
    STOREFRONT_ENABLED: optional(flag.default(true)),
    // Relative to the working directory, as a path typed in a shell would be; stored absolute.
    STOREFRONT_DIR: optional(z.string().trim().transform((path) => resolve(path)).default(BUILT_STOREFRONT_DIR)),
  })
  .refine((env) => env.NODE_ENV !== 'production' || env.API_KEYS.length > 0, {
    path: ['API_KEYS'],
    message: 'must list at least one key when NODE_ENV=production (no development key is made there)',
  })
  .refine(migrationUrlFits, MIGRATION_URL_PROBLEM);

/** Where the data lives, and the timeouts past which a request gets a 503. */
export type DatabaseConfig = DatabaseTarget & {
  /** PostgreSQL connections per instance. */
  poolSize: number;
  /** Longest wait for a connection (PostgreSQL) or a lock (SQLite's busy timeout). */
  connectTimeoutMs: number;
  statementTimeoutMs: number;
};
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Read once from the environment and validated before anything starts. */
export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  apiKeys: string[];
  /** Outside production, when no key was configured: a random key that lives as long as the process. */
  developmentKey?: string;
  /** PUBLIC_BASE_URL; unset, clients are told where the process listens (public-base-url.ts). */
  publicBaseUrl?: string;
  stagingBaseUrl?: string;
  /** Requests per second per API key; 0 turns the limit off. */
  rateLimitRps: number;
  /** Failed authentications per minute per client address before it gets 429s; 0 turns this off. */
  authFailuresPerMinute: number;
  /** Rate-limit store shared across instances. */
  redisUrl?: string;
  /** Longest wait for Redis per limiter call before counting in-process instead. */
  redisTimeoutMs: number;
  /** Empty means CORS is off. */
  corsOrigins: string[];
  /** Event streams open at once, per API key and in all on this instance; more are answered 429. */
  eventStreams: { perKey: number; perInstance: number };
  logLevel: LogLevel;
  /** Absent when METRICS_PORT=0. */
  metrics?: { port: number; host: string };
  /** See {@link tracingRequested}. */
  tracing: boolean;
  webhooks: WebhookConfig;
  /** Served at /storefront/; absent when STOREFRONT_ENABLED=false. */
  storefront?: { directory: string };
}

/** How webhooks are delivered, and which endpoints may be registered. */
export interface WebhookConfig {
  /** `http://` endpoints are accepted too (tests, private networks). */
  allowInsecure: boolean;
  /** Endpoints may resolve to loopback, private, link-local or metadata addresses. */
  allowPrivateAddresses: boolean;
  /** Seconds before each retry; when they run out, the message has failed. */
  retryScheduleSeconds: number[];
  /** One attempt's deadline: connection, request and the response's head. */
  timeoutMs: number;
}

/** Raised with every problem found, so that an operator fixes the environment in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads `secrets` from their `_FILE` first; reports every problem at once. */
function parse<T extends z.ZodTypeAny>(schema: T, env: Env, secrets: readonly FileSecret[] = []): z.output<T> {
  const { env: resolved, problems } = readFileSecrets(env, secrets);
  const parsed = schema.safeParse(resolved);
  if (parsed.success && problems.length === 0) return parsed.data;
  // A secret that could not be read is reported once, not again as its variable's own problem.
  const unread = new Set<string>(problems.map(({ name }) => name));
  const issues = parsed.success ? [] : parsed.error.issues.filter((issue) => !unread.has(String(issue.path[0])));
  throw new ConfigError([...problems.map(({ problem }) => problem), ...issues.map((issue) => `${issue.path.join('.')} ${issue.message}`)]);
}

const toDatabaseConfig = (e: z.output<typeof databaseSchema>): DatabaseConfig => ({
  ...e.DATABASE_URL,
  ...(e.DATABASE_MIGRATION_URL?.type === 'postgres' && { migrationUrl: e.DATABASE_MIGRATION_URL.url }),
  poolSize: e.DATABASE_POOL_SIZE,
  connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
  statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
});

const toWebhookConfig = (e: z.output<typeof webhookSchema>): WebhookConfig => ({
  allowInsecure: e.WEBHOOK_ALLOW_INSECURE,
  allowPrivateAddresses: e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
  retryScheduleSeconds: e.WEBHOOK_RETRY_SCHEDULE,
  timeoutMs: e.WEBHOOK_TIMEOUT_MS,
});

/** Only the WEBHOOK_* variables, for `npm run webhooks`. */
export function loadWebhookConfig(env: Env = process.env): WebhookConfig {
  return toWebhookConfig(parse(webhookSchema, env));
}

/** Only the DATABASE_* variables, for tools that work on the database without running the service. */
export function loadDatabaseConfig(env: Env = process.env): DatabaseConfig {
  return toDatabaseConfig(parse(databaseSchema, env, ['DATABASE_URL', 'DATABASE_MIGRATION_URL']));
}

/** Throws {@link ConfigError} naming every bad variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const e = parse(envSchema, env, FILE_SECRETS);
  const developmentKey = e.API_KEYS.length === 0 ? `pk_dev_${randomBytes(24).toString('base64url')}` : undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    database: toDatabaseConfig(e),
    apiKeys: developmentKey ? [developmentKey] : e.API_KEYS,
    developmentKey,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    stagingBaseUrl: e.STAGING_BASE_URL,
    rateLimitRps: e.RATE_LIMIT_RPS,
    authFailuresPerMinute: e.RATE_LIMIT_AUTH_FAILURES,
    redisUrl: e.REDIS_URL,
    redisTimeoutMs: e.RATE_LIMIT_REDIS_TIMEOUT_MS,
    corsOrigins: e.CORS_ORIGINS,
    eventStreams: { perKey: e.EVENT_STREAMS_PER_KEY, perInstance: e.EVENT_STREAMS_MAX },
    logLevel: e.LOG_LEVEL,
    metrics: e.METRICS_PORT === 0 ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    tracing: tracingRequested(env),
    webhooks: toWebhookConfig(e),
    storefront: e.STOREFRONT_ENABLED ? { directory: e.STOREFRONT_DIR } : undefined,
  };
}

/** Whether OpenTelemetry's standard variables ask for traces; without them no tracing code is loaded. */
export function tracingRequested(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter) return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}
