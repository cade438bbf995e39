import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSION } from '@petstore/contract';

const WORKSPACE = join(__dirname, '../../..');
const read = (path: string) => JSON.parse(readFileSync(join(WORKSPACE, path), 'utf8'));

// `nx release` versions the two packages (a fixed group); API_VERSION, and with it the committed document, is set by
// hand when a version is cut (docs/releasing.md). This spec is what keeps the four from drifting apart.
describe('one version for the client, the contract and the OpenAPI document', () => {
  const client: string = read('libs/client/package.json').version;

  it.each([
    ['libs/contract/package.json', () => read('libs/contract/package.json').version],
    ['API_VERSION (libs/contract/src/lib/interface.ts)', () => API_VERSION],
    ['info.version of libs/contract/openapi/openapi.json', () => read('libs/contract/openapi/openapi.json').info.version],
  ])("%s is libs/client/package.json's version", (_where, version) => {
    expect(version()).toBe(client);
  });

  it('has its released document kept in libs/contract/openapi/releases/', () => {
    const released = `libs/contract/openapi/releases/${client}.json`;
    expect({ released, exists: existsSync(join(WORKSPACE, released)) }).toEqual({ released, exists: true });
  });
});
