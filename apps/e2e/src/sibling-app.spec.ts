import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { chromiumRuns, freePort, launchChromium, type NodeProcess, startService, stopNode } from '@petstore/testing';
import { TEST_KEY } from './support/test-key';
import { postPet, withTestKey } from './support/with-test-key';

// docs/api.md, "Using the client": `nx g @petstore/tools:sibling-app <name>`, then build, lint, test and serve
// at once, without editing anything. Run on a scratch copy of the workspace (its files as git sees them, uncommitted
// ones too, sharing node_modules and the built service), so that nothing is written here.
jest.setTimeout(300_000);

const WORKSPACE = join(__dirname, '../../..');
const NAME = 'shop-report';

interface Run {
  code: number;
  output: string;
}

describe('nx g @petstore/tools:sibling-app', () => {
  let scratch: string;
  let service: NodeProcess;

  /** An Nx command in the scratch copy: its exit code and everything it printed. */
  async function nx(args: string[], env: Record<string, string> = {}): Promise<Run> {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(scratch, 'node_modules/nx/dist/bin/nx.js'), ...args], {
        cwd: scratch,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? scratch, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0', ...env },
        maxBuffer: 64 * 1024 * 1024,
      });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  }

  const listed = (folder: string): string[] =>
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
      .sort();

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'petstore-sibling-'));
    const { stdout } = await promisify(execFile)('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: WORKSPACE, maxBuffer: 64 * 1024 * 1024 });
    // A file git lists but the checkout lacks (deleted, not yet staged) is not part of it.
    for (const file of stdout.split('\0').filter((file) => file && existsSync(join(WORKSPACE, file)))) {
      mkdirSync(dirname(join(scratch, file)), { recursive: true });
      cpSync(join(WORKSPACE, file), join(scratch, file));
    }
    symlinkSync(join(WORKSPACE, 'node_modules'), join(scratch, 'node_modules'));
    mkdirSync(join(scratch, 'dist/apps'), { recursive: true });
    symlinkSync(join(WORKSPACE, 'dist/apps/api'), join(scratch, 'dist/apps/api'));
    service = await startService({ env: { API_KEYS: TEST_KEY, DATABASE_URL: `sqlite:${join(scratch, 'service.sqlite')}` } });
  });

  afterAll(async () => {
    if (service) await stopNode(service);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  describe('the default kind: a Node.js program', () => {
    it('writes apps/<name>: the project, its configuration, a program on the client and its tests', async () => {
      const generated = await nx(['g', '@petstore/tools:sibling-app', NAME]);

      expect(generated).toEqual({ code: 0, output: expect.stringContaining(`apps/${NAME} is ready.`) });
      expect(listed(join(scratch, 'apps', NAME))).toEqual([
        'README.md',
        'eslint.config.mjs',
        'jest.config.js',
        'project.json',
        'src/app/client-options.spec.ts',
        'src/app/client-options.ts',
        'src/app/pets-by-status.ts',
        'src/main.spec.ts',
        'src/main.ts',
        'tsconfig.app.json',
        'tsconfig.json',
        'tsconfig.spec.json',
        'tsup.config.ts',
      ]);
    });

    it('builds, lints and type-checks at once', async () => {
      const checked = await nx(['run-many', '-t', 'build', 'lint', 'typecheck', '-p', NAME, '--output-style=static']);

      expect(checked).toEqual({ code: 0, output: expect.stringContaining(`Successfully ran targets build, lint, typecheck for project ${NAME}`) });
    });

    it("refuses in lint the service's code, the contract's decorated entry and the server's packages", async () => {
      const intruder = join(scratch, 'apps', NAME, 'src/app/intruder.ts');
      writeFileSync(
        intruder,
        [
          "import { loadConfig } from '../../../api/src/app/config/app-config';",
          "import { PetDto } from '@petstore/contract/dto';",
          "import { DataSource } from 'typeorm';",
          'export const intruders = [loadConfig, PetDto, DataSource];',
          '',
        ].join('\n'),
      );
      try {
        const linted = await nx(['lint', NAME, '--skip-nx-cache', '--output-style=static']);

        expect(linted.code).not.toBe(0);
        expect(linted.output).toContain('Projects cannot be imported by a relative or absolute path');
        expect(linted.output).toContain("'@petstore/contract/dto' import is restricted");
        expect(linted.output).toContain('A project tagged with "scope:sibling" is not allowed to import "typeorm"');
      } finally {
        rmSync(intruder);
      }
    });

    it('passes its own test, which runs the built program against a service it starts', async () => {
      const tested = await nx(['test', NAME, '--exclude-task-dependencies', '--output-style=static']);

      expect(tested).toEqual({ code: 0, output: expect.stringMatching(/Tests:\s+6 passed, 6 total/) });
    });

    it('serves: `nx serve <name>` builds it and runs it against PETSTORE_URL with PETSTORE_API_KEY', async () => {
      for (const status of ['available', 'available', 'pending']) await postPet(service.origin, { name: 'Rex', categoryId: 1, status });

      const served = await nx(['serve', NAME, '--output-style=static'], { PETSTORE_URL: `${service.origin}/v1`, PETSTORE_API_KEY: TEST_KEY });

      expect(served.code).toBe(0);
      expect(served.output).toContain('available\t2\npending\t1\nsold\t0\n');
      expect(served.output).not.toContain(TEST_KEY);
    });

    it('says how to get a key when there is none, and exits 1', async () => {
      const served = await nx(['serve', NAME, '--output-style=static'], { PETSTORE_URL: `${service.origin}/v1` });

      expect(served.code).not.toBe(0);
      expect(served.output).toContain(`${NAME}: no API key: set PETSTORE_API_KEY to a key ${service.origin}/v1 accepts`);
    });
  });

  describe('--kind=browser: a web page', () => {
    const PAGE = 'shop-page';
    let devServer: ChildProcess | undefined;

    afterAll(() => {
      // Nx and the Vite server it starts, as one process group.
      if (devServer?.pid) process.kill(-devServer.pid, 'SIGKILL');
    });

    it('writes apps/<name> for Vite and React, on the client', async () => {
      expect(await nx(['g', '@petstore/tools:sibling-app', PAGE, '--kind=browser'])).toEqual({ code: 0, output: expect.stringContaining(`apps/${PAGE} is ready.`) });
      expect(listed(join(scratch, 'apps', PAGE))).toEqual([
        'README.md',
        'eslint.config.mjs',
        'index.html',
        'jest.config.js',
        'project.json',
        'src/app/app.spec.tsx',
        'src/app/app.tsx',
        'src/app/pets-by-status.ts',
        'src/main.tsx',
        'src/testing/jsdom-environment.js',
        'tsconfig.app.json',
        'tsconfig.json',
        'tsconfig.spec.json',
        'tsconfig.vite.json',
        'vite.config.mts',
      ]);
    });

    it('builds, lints, type-checks and passes its test (in jsdom, against a service it starts) at once', async () => {
      const checked = await nx(['run-many', '-t', 'build', 'lint', 'typecheck', 'test', '-p', PAGE, '--exclude-task-dependencies', '--output-style=static']);

      expect(checked).toEqual({ code: 0, output: expect.stringContaining(`Successfully ran targets build, lint, typecheck, test for project ${PAGE}`) });
      expect(checked.output).toMatch(/Tests:\s+2 passed, 2 total/);
      expect(readFileSync(join(scratch, 'dist/apps', PAGE, 'index.html'), 'utf8')).toContain('<div id="root"></div>');
    });

    (chromiumRuns('the sibling web page in Chromium') ? it : it.skip)('serves: `nx serve <name>` runs Vite, which forwards /v1 to the service, and the page counts the pets', async () => {
      const port = await freePort();
      devServer = spawn(process.execPath, [join(scratch, 'node_modules/nx/dist/bin/nx.js'), 'serve', PAGE, '--host=127.0.0.1', `--port=${port}`], {
        cwd: scratch,
        detached: true,
        stdio: 'ignore',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? scratch, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', CI: 'true', PETSTORE_API_ORIGIN: service.origin },
      });
      const origin = `http://127.0.0.1:${port}`;
      await until200(`${origin}/`);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        page.setDefaultTimeout(60_000);
        await page.goto(`${origin}/`);
        await page.getByLabel('API key').fill(TEST_KEY);
        await page.getByRole('button', { name: 'Count pets' }).click();
        const rows = page.getByRole('table', { name: 'Pets by status' }).getByRole('row');
        await rows.nth(3).waitFor();
        const cells = await rows.evaluateAll((found) => found.slice(1).map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)));
        expect(cells).toEqual(await Promise.all(['available', 'pending', 'sold'].map(async (status) => [status, String(await countOf(service.origin, status))])));
      } finally {
        await browser.close();
      }
    });
  });
});

/** How many pets the service has in `status`, asked directly. */
async function countOf(origin: string, status: string): Promise<number> {
  const answer = await withTestKey(`${origin}/v1/pets?status=${status}&limit=100`);
  return ((await answer.json()) as unknown[]).length;
}

/** Until `url` answers 200, within a deadline for a busy machine (Nx, then Vite, start). */
async function until200(url: string): Promise<void> {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; await sleep(250)) {
    const status = await fetch(url).then((response) => response.status, () => 0);
    if (status === 200) return;
  }
  throw new Error(`${url} never answered 200`);
}
