import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { NPM_ENV } from '@petstore/testing';

const WORKSPACE = join(__dirname, '../../..');
const execFileAsync = promisify(execFile);
// Nothing listens on the discard port: were the dry run to reach for a registry or a proxy, it would fail here.
const NOWHERE = 'http://127.0.0.1:9';
// The files a real `nx release` writes, and where the version plans live.
const WATCHED = ['libs/client', 'libs/contract', '.nx/version-plans', 'nx.json'];

const gitStatus = async () =>
  (await execFileAsync('git', ['status', '--porcelain', '--untracked-files=all', '--', ...WATCHED], { cwd: WORKSPACE })).stdout;

jest.setTimeout(180_000);

describe('npm run release -- --dry-run', () => {
  const current: string = JSON.parse(readFileSync(join(WORKSPACE, 'libs/client/package.json'), 'utf8')).version;
  // A major plan, so that the next version is known whatever plans are committed (the largest bump wins).
  const next = `${Number(current.split('.')[0]) + 1}.0.0`;
  const probe = join(WORKSPACE, `.nx/version-plans/dry-run-probe-${process.pid}.md`);
  let before: string;
  let output: string;

  beforeAll(async () => {
    before = await gitStatus();
    // A clean clone has no plans, and git keeps no empty folder: the folder is made for the probe, and removed with it.
    const madeFolder = !existsSync(dirname(probe));
    mkdirSync(dirname(probe), { recursive: true });
    writeFileSync(probe, '---\n__default__: major\n---\n\nThe dry run\'s probe (tools/release): never committed.\n');
    try {
      const env = {
        ...NPM_ENV,
        CI: 'true',
        NX_DAEMON: 'false',
        NX_NO_CLOUD: 'true',
        FORCE_COLOR: '0',
        NO_COLOR: '1',
        npm_config_registry: NOWHERE,
        HTTP_PROXY: NOWHERE,
        HTTPS_PROXY: NOWHERE,
      };
      const run = await execFileAsync('npm', ['run', '--silent', 'release', '--', '--dry-run'], {
        cwd: WORKSPACE,
        env,
        timeout: 150_000,
      });
      output = run.stdout + run.stderr;
    } finally {
      rmSync(madeFolder ? dirname(probe) : probe, { recursive: true, force: true });
    }
  });

  it('versions both packages of the fixed group to the next version', () => {
    expect(output).toContain(`New version ${next} written to manifest: libs/client/package.json`);
    expect(output).toContain(`New version ${next} written to manifest: libs/contract/package.json`);
  });

  it("previews each package's CHANGELOG.md entry from the version plans", () => {
    expect(output).toContain(`Previewing an entry in libs/client/CHANGELOG.md for v${next}`);
    expect(output).toContain(`Previewing an entry in libs/contract/CHANGELOG.md for v${next}`);
    expect(output).toContain("The dry run's probe");
  });

  it("weighs the plans' bump against the gate's verdict", () => {
    expect(output).toMatch(new RegExp(`The gate finds .* against libs/contract/openapi/releases/${current.replaceAll('.', '\\.')}\\.json; the version plans ask for a major version: ${current} → ${next}`));
    expect(output).toContain(`would write ${next} into both package.json files and the image tag of deploy/kubernetes/base/kustomization.yaml, regenerate libs/contract/openapi/openapi.json, keep it as libs/contract/openapi/releases/${next}.json`);
  });

  it('changes no file', async () => {
    expect(await gitStatus()).toBe(before);
  });
});
