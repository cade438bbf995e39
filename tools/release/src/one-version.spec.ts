import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const WORKSPACE = join(__dirname, '../../..');
const read = (path: string) => JSON.parse(readFileSync(join(WORKSPACE, path), 'utf8'));

// `npm run release` writes the version (docs/releasing.md); API_VERSION and the document follow from the contract's
// package.json. What a hand edit could still get wrong: a version with no released document for the gate.
describe('the version', () => {
  const client: string = read('libs/client/package.json').version;

  it("is the same in both packages (Nx's fixed group)", () => {
    expect(read('libs/contract/package.json').version).toBe(client);
  });

  it('has its released document kept in libs/contract/openapi/releases/', () => {
    const released = `libs/contract/openapi/releases/${client}.json`;
    expect({ released, exists: existsSync(join(WORKSPACE, released)) }).toEqual({ released, exists: true });
  });
});
