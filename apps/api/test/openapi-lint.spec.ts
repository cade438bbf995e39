import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(__dirname, '../../..');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
// Redocly otherwise reports usage and checks for updates over the network, which a test must not depend on.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

// Spectral severities: 0 error, 1 warning, 2 info, 3 hint.
interface SpectralProblem {
  code: string;
  severity: number;
  path: string[];
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function exec(file: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: root, env: { ...env, ...extraEnv }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    const code = typeof failed.code === 'number' ? failed.code : -1;
    return { code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('OpenAPI document lint', () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-openapi-'));
    file = join(dir, 'openapi.json');
    // The export entry (`npm run openapi`, built from these sources) is what CI publishes, so the document linted here
    // is the document shipped: as deployed, behind https:// addresses and with CORS on, which adds
    // Access-Control-Allow-Origin to every response.
    const exported = await exec(
      process.execPath,
      ['-r', '@swc-node/register', 'apps/api/src/admin/openapi.command.ts', file],
      {
        SWC_NODE_PROJECT: 'tsconfig.base.json',
        PUBLIC_BASE_URL: 'https://api.petstore.test/v1',
        STAGING_BASE_URL: 'https://staging.petstore.test/v1',
        CORS_ORIGINS: 'https://shop.petstore.test',
      },
    );
    expect(exported).toMatchObject({ code: 0, stderr: '' });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs Spectral with `ruleset`; every problem it reports, and its exit code. */
  async function spectral(ruleset: string): Promise<{ code: number; problems: SpectralProblem[] }> {
    const report = join(dir, `${ruleset}.json`);
    const result = await exec(bin('spectral'), [
      'lint',
      file,
      '--ruleset',
      ruleset,
      '--fail-severity',
      'error',
      '--format',
      'json',
      '--output',
      report,
    ]);
    return { code: result.code, problems: JSON.parse(readFileSync(report, 'utf8')) as SpectralProblem[] };
  }

  it('has no error under spectral:oas', async () => {
    const { code, problems } = await spectral('.spectral.yaml');
    expect(problems.filter((p) => p.severity === 0)).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it('has no error under the OWASP API Security Top 10 (2023) ruleset', async () => {
    const { code, problems } = await spectral('.spectral-owasp.yaml');
    expect(problems.filter((p) => p.severity === 0).map(({ code, path }) => `${code} at ${path.join('.')}`)).toEqual([]);
    expect(code).toBe(0);
    // The OWASP rules did run: free-text strings (a pet's name, an error's message) keep their pattern warning.
    expect(problems).toContainEqual(
      expect.objectContaining({ code: 'owasp:api4:2023-string-restricted', path: ['components', 'schemas', 'NewPet', 'properties', 'name'] }),
    );
  }, 120_000);

  it('has no error under the Redocly recommended ruleset', async () => {
    const result = await exec(bin('redocly'), ['lint', file, '--format', 'json']);
    const report = JSON.parse(result.stdout) as {
      totals: { errors: number };
      problems: Array<{ ruleId: string; severity: string }>;
    };
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(result.code).toBe(0);
  }, 120_000);
});
