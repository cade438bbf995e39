import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageTagOf, MANIFEST_IMAGES, withImageTag } from './image-tag';

const WORKSPACE = join(__dirname, '../../..');
const read = (path: string) => JSON.parse(readFileSync(join(WORKSPACE, path), 'utf8'));

// `npm run release` writes the version (docs/releasing.md); API_VERSION and the document follow from the contract's
// package.json, and the manifests' image tag from the release. What a hand edit could still get wrong: a version with
// no released document for the gate, or manifests that deploy another release.
describe('the version', () => {
  const client: string = read('libs/client/package.json').version;

  it("is the same in both packages (Nx's fixed group)", () => {
    expect(read('libs/contract/package.json').version).toBe(client);
  });

  it('has its released document kept in libs/contract/openapi/releases/', () => {
    const released = `libs/contract/openapi/releases/${client}.json`;
    expect({ released, exists: existsSync(join(WORKSPACE, released)) }).toEqual({ released, exists: true });
  });

  it(`is the image tag the manifests deploy (${MANIFEST_IMAGES})`, () => {
    expect(imageTagOf(readFileSync(join(WORKSPACE, MANIFEST_IMAGES), 'utf8'))).toBe(client);
  });

  it('is written into the kustomization by the release, leaving the rest as it was', () => {
    const kustomization = 'images:\n  - name: other\n    newTag: 9.9.9\n  - name: petstore\n    newTag: 1.0.0\nresources: []\n';
    expect(withImageTag(kustomization, '2.0.0')).toBe('images:\n  - name: other\n    newTag: 9.9.9\n  - name: petstore\n    newTag: 2.0.0\nresources: []\n');
    expect(() => withImageTag('images: []\n', '2.0.0')).toThrow(/names no newTag/);
  });
});
