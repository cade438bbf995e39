import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_URL_MAX_LENGTH, BUILT_STOREFRONT_DIR, ConfigError, loadConfig, loadDatabaseConfig, tracingRequested } from './app-config';

const WORKSPACE = join(__dirname, '../../../../..');

describe(loadConfig.name, () => {
  const KEY = 'pk_unit_key_0123456789';

  it('applies the documented defaults', () => {
    const config = loadConfig({ API_KEYS: KEY });
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      database: { type: 'sqlite', path: './data/petstore.sqlite', poolSize: 10, connectTimeoutMs: 5000, statementTimeoutMs: 5000 },
      apiKeys: [KEY],
      developmentKey: undefined,
      // Unset: clients are told where the process listens (public-base-url.ts).
      publicBaseUrl: undefined,
      stagingBaseUrl: undefined,
      rateLimitRps: 100,
      authFailuresPerMinute: 30,
      redisUrl: undefined,
      redisTimeoutMs: 50,
      corsOrigins: [],
      eventStreams: { perKey: 20, perInstance: 2000 },
      logLevel: 'info',
      metrics: { port: 9464, host: '127.0.0.1' },
      tracing: false,
      webhooks: {
        allowInsecure: false,
        allowPrivateAddresses: false,
        retryScheduleSeconds: [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400],
        timeoutMs: 10_000,
      },
      storefront: { directory: BUILT_STOREFRONT_DIR },
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'sqlite:/var/lib/petstore/pets.sqlite',
      API_KEYS: `${KEY}, pk_other_key_0123456789 ,`,
      PUBLIC_BASE_URL: 'https://api.example.com/v1/',
      STAGING_BASE_URL: 'https://staging.example.com/v1',
      RATE_LIMIT_RPS: '0',
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_REDIS_TIMEOUT_MS: '20',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      METRICS_PORT: '9100',
      METRICS_HOST: '10.0.0.5',
      WEBHOOK_ALLOW_INSECURE: 'true',
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'TRUE',
      WEBHOOK_RETRY_SCHEDULE: '0.2, 1,3',
      WEBHOOK_TIMEOUT_MS: '500',
      STOREFRONT_DIR: '/srv/storefront',
      EVENT_STREAMS_PER_KEY: '3',
      EVENT_STREAMS_MAX: '50',
    });
    expect(config).toMatchObject({
      eventStreams: { perKey: 3, perInstance: 50 },
      storefront: { directory: '/srv/storefront' },
      webhooks: { allowInsecure: true, allowPrivateAddresses: true, retryScheduleSeconds: [0.2, 1, 3], timeoutMs: 500 },
      metrics: { port: 9100, host: '10.0.0.5' },
      port: 8080,
      host: '127.0.0.1',
      database: { type: 'sqlite', path: '/var/lib/petstore/pets.sqlite' },
      apiKeys: [KEY, 'pk_other_key_0123456789'],
      publicBaseUrl: 'https://api.example.com/v1',
      stagingBaseUrl: 'https://staging.example.com/v1',
      rateLimitRps: 0,
      redisUrl: 'redis://127.0.0.1:6379',
      redisTimeoutMs: 20,
      logLevel: 'warn',
      developmentKey: undefined,
    });
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ API_KEYS: KEY, PORT: '', LOG_LEVEL: ' ' })).toMatchObject({ port: 3000, logLevel: 'info' });
  });

  it('makes a random development key outside production when no key is set', () => {
    const a = loadConfig({});
    const b = loadConfig({});
    expect(a.developmentKey).toMatch(/^pk_dev_[A-Za-z0-9_-]{32}$/);
    expect(a.apiKeys).toEqual([a.developmentKey]);
    expect(b.developmentKey).not.toBe(a.developmentKey);
  });

  it('refuses production without keys', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/API_KEYS must list at least one key when NODE_ENV=production/);
  });

  it('reads an empty WEBHOOK_RETRY_SCHEDULE as the default, and refuses a bad one or a flag that is not true or false', () => {
    expect(loadConfig({ API_KEYS: KEY, WEBHOOK_RETRY_SCHEDULE: '' }).webhooks.retryScheduleSeconds).toHaveLength(9);
    expect(() => loadConfig({ API_KEYS: KEY, WEBHOOK_RETRY_SCHEDULE: '5,x' })).toThrow(/WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds/);
    expect(() => loadConfig({ API_KEYS: KEY, WEBHOOK_ALLOW_INSECURE: 'yes' })).toThrow(/WEBHOOK_ALLOW_INSECURE must be true or false/);
  });

  it('names every bad variable at once', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ PORT: '70000', HOST: '', LOG_LEVEL: 'loud', RATE_LIMIT_RPS: 'x', PUBLIC_BASE_URL: 'https://a.example/v2', REDIS_URL: 'http://x', RATE_LIMIT_REDIS_TIMEOUT_MS: '0' });
    } catch (thrown) {
      error = thrown as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.problems.map((p) => p.split(' ')[0]).sort()).toEqual(['LOG_LEVEL', 'PORT', 'PUBLIC_BASE_URL', 'RATE_LIMIT_REDIS_TIMEOUT_MS', 'RATE_LIMIT_RPS', 'REDIS_URL']);
  });

  it('reads a PostgreSQL URL with its pool and timeouts', () => {
    const config = loadConfig({
      API_KEYS: KEY,
      DATABASE_URL: 'postgresql://app@db.internal:5432/pets',
      DATABASE_POOL_SIZE: '25',
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_STATEMENT_TIMEOUT_MS: '3000',
    });
    expect(config.database).toEqual({
      type: 'postgres',
      url: 'postgresql://app@db.internal:5432/pets',
      poolSize: 25,
      connectTimeoutMs: 2000,
      statementTimeoutMs: 3000,
    });
  });

  it('reads DATABASE_MIGRATION_URL, the server itself, for migrations that a pooler would cut', () => {
    const env = { API_KEYS: KEY, DATABASE_URL: 'postgres://app@pgbouncer:6432/pets' };
    expect(loadConfig({ ...env, DATABASE_MIGRATION_URL: 'postgres://app@db:5432/pets' }).database).toMatchObject({
      url: 'postgres://app@pgbouncer:6432/pets',
      migrationUrl: 'postgres://app@db:5432/pets',
    });
    expect(loadConfig(env).database).not.toHaveProperty('migrationUrl');
  });

  it.each([
    ['sqlite:/data/pets.sqlite', 'postgres://app@db:5432/pets'],
    ['postgres://app@pgbouncer:6432/pets', 'sqlite:/data/pets.sqlite'],
    ['postgres://app@pgbouncer:6432/pets', 'mysql://db/pets'],
  ])('refuses DATABASE_MIGRATION_URL beside DATABASE_URL=%s when it is %s', (url, migrationUrl) => {
    expect(() => loadConfig({ API_KEYS: KEY, DATABASE_URL: url, DATABASE_MIGRATION_URL: migrationUrl })).toThrow(/DATABASE_MIGRATION_URL/);
    expect(() => loadDatabaseConfig({ DATABASE_URL: url, DATABASE_MIGRATION_URL: migrationUrl })).toThrow(/DATABASE_MIGRATION_URL/);
  });

  it('refuses a base URL longer than the OpenAPI document allows for the Link headers built from it', () => {
    const url = (length: number) => `https://api.example.com/${'a'.repeat(length - 'https://api.example.com//v1'.length)}/v1`;
    expect(loadConfig({ API_KEYS: KEY, PUBLIC_BASE_URL: url(BASE_URL_MAX_LENGTH) }).publicBaseUrl).toHaveLength(BASE_URL_MAX_LENGTH);
    expect(() => loadConfig({ API_KEYS: KEY, STAGING_BASE_URL: url(BASE_URL_MAX_LENGTH + 1) })).toThrow(
      new RegExp(`STAGING_BASE_URL must be at most ${BASE_URL_MAX_LENGTH} characters`),
    );
  });

  it.each(['mysql://x', 'sqlite:', './file.sqlite', 'postgres://', 'postgres:///nohost'])('refuses DATABASE_URL=%s', (url) => {
    expect(() => loadConfig({ API_KEYS: KEY, DATABASE_URL: url })).toThrow(/DATABASE_URL/);
  });

  it.each([
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ['DATABASE_STATEMENT_TIMEOUT_MS', '-5'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ API_KEYS: KEY, [name]: value })).toThrow(new RegExp(name));
  });

  it('refuses keys that cannot be bearer tokens without repeating them', () => {
    expect(() => loadConfig({ API_KEYS: 'has space in it 12345' })).toThrow(ConfigError);
    const refusal = (() => {
      try {
        loadConfig({ API_KEYS: 'tooshort' });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    // Outside the catch: a key the schema wrongly accepted would leave no error to check, and fail here.
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).message).toContain('API_KEYS');
    expect((refusal as ConfigError).message).not.toContain('tooshort');
  });

  it('turns the metrics listener off with METRICS_PORT=0, and refuses a port out of range', () => {
    expect(loadConfig({ API_KEYS: KEY, METRICS_PORT: '0' }).metrics).toBeUndefined();
    expect(() => loadConfig({ API_KEYS: KEY, METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  it('finds the storefront beside the service, a relative STOREFRONT_DIR from the working directory, and turns it off', () => {
    expect(BUILT_STOREFRONT_DIR).toBe(join(__dirname, '..', 'storefront'));
    expect(loadConfig({ API_KEYS: KEY, STOREFRONT_DIR: 'web/dist' }).storefront).toEqual({ directory: join(process.cwd(), 'web/dist') });
    expect(loadConfig({ API_KEYS: KEY, STOREFRONT_ENABLED: 'False' }).storefront).toBeUndefined();
    expect(loadConfig({ API_KEYS: KEY, STOREFRONT_ENABLED: ' ' }).storefront).toEqual({ directory: BUILT_STOREFRONT_DIR });
    expect(() => loadConfig({ API_KEYS: KEY, STOREFRONT_ENABLED: 'no' })).toThrow(/STOREFRONT_ENABLED must be true or false/);
  });

  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false],
    [{ OTEL_SERVICE_NAME: 'petstore' }, false],
  ])('traces only when OpenTelemetry variables ask for it: %j → %s', (otel, expected) => {
    expect(tracingRequested(otel)).toBe(expected);
    expect(loadConfig({ API_KEYS: KEY, ...otel }).tracing).toBe(expected);
  });

  describe('secrets from files (API_KEYS_FILE, DATABASE_URL_FILE, REDIS_URL_FILE)', () => {
    let dir: string;
    const file = (name: string, content: string) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };
    /**
     * loadConfig's problems in a child process that cannot read a file its mode forbids. Root reads any file whatever
     * its mode (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH), and CI runs as root: there the child runs without those two
     * capabilities (util-linux's setpriv), so the refusal every other user meets is met here too.
     */
    const problemsWithoutRootsReach = (env: Record<string, string>): unknown => {
      const script = `try { require(${JSON.stringify(require.resolve('./app-config'))}).loadConfig(${JSON.stringify(env)}); } catch (error) { process.stdout.write(JSON.stringify(error.problems)); }`;
      const node = [process.execPath, '-r', '@swc-node/register', '-e', script];
      const CAPABILITIES = ['dac_override', 'dac_read_search'].map((capability) => `-${capability}`).join(',');
      const command = process.getuid?.() === 0 ? ['setpriv', `--inh-caps=${CAPABILITIES}`, `--bounding-set=${CAPABILITIES}`, ...node] : node;
      const run = spawnSync(command[0], command.slice(1), { cwd: WORKSPACE, env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.base.json' }, encoding: 'utf8', timeout: 60_000 });
      if (run.status !== 0) throw new Error(`the child failed: ${run.stderr}`);
      return JSON.parse(run.stdout);
    };
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'petstore-secrets-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('reads each value from its file, without the trailing line break; keys one per line or comma-separated', () => {
      const config = loadConfig({
        API_KEYS_FILE: file('keys', `${KEY}\npk_second_key_0123456789,pk_third_key_01234567890\n`),
        DATABASE_URL_FILE: file('database', 'postgres://petstore:s3cret@db:5432/petstore\n'),
        REDIS_URL_FILE: file('redis', 'redis://:s3cret@redis:6379\r\n'),
        NODE_ENV: 'production',
      });
      expect(config.apiKeys).toEqual([KEY, 'pk_second_key_0123456789', 'pk_third_key_01234567890']);
      expect(config.database).toMatchObject({ type: 'postgres', url: 'postgres://petstore:s3cret@db:5432/petstore' });
      expect(config.redisUrl).toBe('redis://:s3cret@redis:6379');
      // The admin commands read the database the same way.
      expect(loadDatabaseConfig({ DATABASE_URL_FILE: file('database2', 'sqlite:/data/petstore.sqlite\n') })).toMatchObject({ type: 'sqlite', path: '/data/petstore.sqlite' });
      expect(
        loadDatabaseConfig({ DATABASE_URL: 'postgres://app@pgbouncer:6432/pets', DATABASE_MIGRATION_URL_FILE: file('migration', 'postgres://app:s3cret@db:5432/pets\n') }),
      ).toMatchObject({ migrationUrl: 'postgres://app:s3cret@db:5432/pets' });
    });

    it('validates a value from a file as the variable itself, never showing it', () => {
      const found = problems({ API_KEYS_FILE: file('keys', 'short\n'), DATABASE_URL_FILE: file('database', 'mysql://db/petstore') });
      expect(found.map((problem) => problem.split(' ')[0]).sort()).toEqual(['API_KEYS', 'DATABASE_URL']);
      expect(found.join('\n')).not.toContain('short');
    });

    it('refuses both forms of one variable, and a missing or unreadable file, naming the variable, with every other problem', () => {
      const unreadable = file('unreadable', KEY);
      chmodSync(unreadable, 0o000);
      const found = problems({
        API_KEYS: KEY,
        API_KEYS_FILE: file('keys', KEY),
        DATABASE_URL_FILE: join(dir, 'missing'),
        REDIS_URL_FILE: dir,
        PORT: 'eighty',
        NODE_ENV: 'production',
      });
      expect(found).toEqual([
        'API_KEYS_FILE and API_KEYS are both set: give one of them',
        `DATABASE_URL_FILE cannot be read: ENOENT (${join(dir, 'missing')})`,
        `REDIS_URL_FILE cannot be read: EISDIR (${dir})`,
        'PORT must be an integer from 0 to 65535',
      ]);
      expect(problemsWithoutRootsReach({ API_KEYS_FILE: unreadable })).toEqual([`API_KEYS_FILE cannot be read: EACCES (${unreadable})`]);
    });

    it('takes a blank _FILE as unset, as a blank variable is', () => {
      expect(loadConfig({ API_KEYS: KEY, API_KEYS_FILE: ' ' }).apiKeys).toEqual([KEY]);
    });
  });
});

