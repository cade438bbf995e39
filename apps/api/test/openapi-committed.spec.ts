import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMITTED_OPENAPI_DOCUMENT, renderOpenApiDocument } from '../src/admin/openapi-export';
import { startApp } from './support/test-app';

const UPDATE_COMMAND = 'npm run openapi';
const committedPath = join(__dirname, '../../..', COMMITTED_OPENAPI_DOCUMENT);

/** Where two texts part, as `line N` and both lines, so the failure says what changed without a 60 KB diff. */
function firstDifference(expected: string, actual: string): string {
  const [before, after] = [expected.split('\n'), actual.split('\n')];
  const line = before.findIndex((text, index) => text !== after[index]);
  const at = line === -1 ? before.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(before[at] ?? '')}, generated ${JSON.stringify(after[at] ?? '')}`;
}

describe('the committed OpenAPI document', () => {
  it(`is the document the sources generate (update it with \`${UPDATE_COMMAND}\`)`, async () => {
    const [committed, generated] = [readFileSync(committedPath, 'utf8'), await renderOpenApiDocument()];
    if (committed !== generated) {
      throw new Error(
        `${COMMITTED_OPENAPI_DOCUMENT} is not what the sources generate (${firstDifference(committed, generated)}). ` +
          `Run \`${UPDATE_COMMAND}\`, review the document's diff (docs/releasing.md) and commit it.`,
      );
    }
  }, 120_000);

  // The committed document is written before any process listens, so its production server is the default port's;
  // a service started without PUBLIC_BASE_URL names where it really listens instead, and nothing else differs.
  it('is what the service serves at /docs/openapi.json with its defaults, but for the address it listens on', async () => {
    const sut = await startApp();
    try {
      const served = (await (await fetch(`${sut.origin}/docs/openapi.json`)).json()) as { servers: Array<{ url: string }> };
      const committed = JSON.parse(readFileSync(committedPath, 'utf8')) as typeof served;
      expect(committed.servers[1].url).toBe('http://localhost:3000/v1');
      expect(served.servers[1].url).toBe(`${sut.origin}/v1`);
      served.servers[1].url = committed.servers[1].url;
      expect(served).toEqual(committed);
    } finally {
      await sut.close();
    }
  });
});
