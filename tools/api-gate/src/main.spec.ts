import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { committed, createPet, schemas, type Seed } from './testing/seeds';

// `npm run api-gate` as CI and a person run it: its exit code is the verdict (docs/releasing.md).
const WORKSPACE = join(__dirname, '../../..');
const folder = mkdtempSync(join(tmpdir(), 'api-gate-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function write(name: string, seed: Seed): string {
  const document = structuredClone(committed);
  seed(document);
  const file = join(folder, name);
  writeFileSync(file, JSON.stringify(document));
  return file;
}

function runGate(...args: string[]) {
  const run = spawnSync('npm', ['run', '--silent', 'api-gate', '--', ...args], { cwd: WORKSPACE, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run api-gate', () => {
  const released = write('released.json', () => undefined);

  it('exits 0 on the committed document against the latest release, printing its verdict', () => {
    expect(runGate()).toMatchObject({ status: 0, stdout: expect.stringMatching(/^Compared libs\/contract\/openapi\/openapi\.json .* with libs\/contract\/openapi\/releases\/\d+\.\d+\.\d+\.json/) });
  });

  it('exits 0 on an additive change, and prints its report as JSON when asked', () => {
    const current = write('additive.json', (d) => (schemas(d).Pet.properties.tag = { type: 'string' }));
    expect(runGate('--released', released, '--current', current)).toMatchObject({ status: 0, stdout: expect.stringContaining('minor version') });
    const json = runGate('--released', released, '--current', current, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ released: expect.stringMatching(/released\.json$/), change: 'minor', refused: false, minor: expect.arrayContaining([expect.objectContaining({ by: 'response.body.scope.remove' })]) });
  });

  it('exits 1 on a breaking change, naming it', () => {
    const current = write('breaking.json', (d) => delete createPet(d).responses['409']);
    expect(runGate('--released', released, '--current', current)).toMatchObject({ status: 1, stdout: expect.stringContaining('BREAKING   POST /pets response 409: status code removed') });
  });

  it('exits 1 on a change it cannot weigh, naming the place', () => {
    const current = write('undecided.json', (d) => (schemas(d).NewPet.unevaluatedProperties = false));
    expect(runGate('--released', released, '--current', current)).toMatchObject({ status: 1, stdout: expect.stringContaining('UNDECIDED  POST /pets request body (application/json): unevaluatedProperties added') });
  });

  it('exits 1 on a reference to another document, which it does not read, naming it', () => {
    const current = write('external.json', (d) => (schemas(d).Pet.properties.owner = { $ref: 'owners.json#/Owner' }));
    expect(runGate('--released', released, '--current', current)).toMatchObject({ status: 1, stdout: expect.stringContaining('UNDECIDED  the documents: $ref owners.json#/Owner names another document') });
  });

  it('exits 2 when a document cannot be read, saying why', () => {
    const broken = join(folder, 'broken.json');
    writeFileSync(broken, '{"openapi": "3.1.0", ');
    expect(runGate('--released', released, '--current', broken)).toMatchObject({ status: 2, stderr: expect.stringContaining('api-gate could not compare the documents') });
  });
});
