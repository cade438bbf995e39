import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/podman';
import type { Sbom } from './support/sbom';

// tools/containers/sbom-of-image.mjs, which the Containerfile runs to complete npm's SBOM into one of the whole image,
// run here on a runtime root made of fixtures (container-image.spec compares the built image's SBOM with the image).

const STATUS = `Package: libc6
Status: install ok installed
Architecture: amd64
Source: glibc
Version: 2.41-12+deb13u5

Package: bsdutils
Essential: yes
Status: install ok installed
Architecture: amd64
Source: util-linux (2.41-5)
Version: 1:2.41-5

Package: libstdc++6
Status: install ok installed
Architecture: amd64
Source: gcc-14 (14.2.0-19)
Version: 14.2.0-19

Package: apt
Status: deinstall ok config-files
Architecture: amd64
Version: 3.0.3
`;

describe('the SBOM of the image (tools/containers/sbom-of-image.mjs)', () => {
  const work = mkdtempSync(join(tmpdir(), 'petstore-sbom-'));
  const sqlite3 = JSON.parse(readFileSync(join(ROOT, 'node_modules/sqlite3/package.json'), 'utf8')) as { version: string };
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** The script run once on the fixtures: what both tests read. */
  function sbomOfFixtures(): Sbom {
    const root = join(work, 'root');
    mkdirSync(join(root, 'var/lib/dpkg'), { recursive: true });
    mkdirSync(join(root, 'usr/lib'), { recursive: true });
    mkdirSync(join(root, 'etc'), { recursive: true });
    writeFileSync(join(root, 'var/lib/dpkg/status'), STATUS);
    writeFileSync(join(root, 'usr/lib/os-release'), 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\nVERSION_ID="13"\n');
    writeFileSync(join(root, 'etc/debian_version'), '13.2\n');
    const file = join(work, 'sbom.json');
    const ref = (name: string, version: string) => `${name}@${version}`;
    writeFileSync(
      file,
      JSON.stringify({
        bomFormat: 'CycloneDX',
        metadata: { component: { 'bom-ref': 'api@0.0.1', name: 'api' } },
        components: [
          { type: 'library', 'bom-ref': ref('sqlite3', sqlite3.version), name: 'sqlite3', version: sqlite3.version, purl: `pkg:npm/sqlite3@${sqlite3.version}` },
          { type: 'library', 'bom-ref': ref('removed-by-the-build', '1.0.0'), name: 'removed-by-the-build', version: '1.0.0', purl: 'pkg:npm/removed-by-the-build@1.0.0' },
        ],
        dependencies: [
          { ref: 'api@0.0.1', dependsOn: [ref('sqlite3', sqlite3.version), ref('removed-by-the-build', '1.0.0')] },
          { ref: ref('sqlite3', sqlite3.version), dependsOn: [] },
          { ref: ref('removed-by-the-build', '1.0.0'), dependsOn: [] },
        ],
      }),
    );
    // Run where node_modules is, as in the image's build: the workspace's sqlite3 stands for the image's.
    execFileSync(process.execPath, [join(ROOT, 'tools/containers/sbom-of-image.mjs'), file, root], { cwd: ROOT, stdio: 'pipe' });
    return JSON.parse(readFileSync(file, 'utf8')) as Sbom;
  }
  let sbom: Sbom;
  beforeAll(() => {
    sbom = sbomOfFixtures();
  });

  it("lists each installed Debian package with Debian 13's package URL, its epoch and its source kept", () => {
    const debian = sbom.components.filter(({ purl }) => purl?.startsWith('pkg:deb/'));
    expect(debian.map(({ name, version, purl }) => ({ name, version, purl }))).toEqual([
      { name: 'libc6', version: '2.41-12+deb13u5', purl: 'pkg:deb/debian/libc6@2.41-12%2Bdeb13u5?arch=amd64&distro=debian-13&upstream=glibc' },
      { name: 'bsdutils', version: '1:2.41-5', purl: 'pkg:deb/debian/bsdutils@1:2.41-5?arch=amd64&distro=debian-13&upstream=util-linux%402.41-5' },
      { name: 'libstdc++6', version: '14.2.0-19', purl: 'pkg:deb/debian/libstdc%2B%2B6@14.2.0-19?arch=amd64&distro=debian-13&upstream=gcc-14' },
    ]);
  });

  it('adds the node binary that ran it, the SQLite compiled into sqlite3, and the operating system; drops what the build removed', () => {
    const { components, dependencies } = sbom;
    const sqliteVersion = (require(join(ROOT, 'node_modules/sqlite3')) as { VERSION: string }).VERSION;
    expect(components.find(({ name }) => name === 'node')).toMatchObject({ version: process.versions.node, purl: `pkg:generic/node@${process.versions.node}` });
    expect(components.find(({ name }) => name === 'sqlite')).toMatchObject({ version: sqliteVersion, cpe: `cpe:2.3:a:sqlite:sqlite:${sqliteVersion}:*:*:*:*:*:*:*` });
    expect(components.find(({ type }) => type === 'operating-system')).toMatchObject({ name: 'debian', version: '13.2' });
    expect(components.map(({ name }) => name)).not.toContain('removed-by-the-build');
    const dependsOn = Object.fromEntries(dependencies.map(({ ref, dependsOn: refs }) => [ref, refs]));
    expect(dependsOn['api@0.0.1']).toEqual([`sqlite3@${sqlite3.version}`, `pkg:generic/node@${process.versions.node}`]);
    expect(dependsOn[`sqlite3@${sqlite3.version}`]).toEqual([`pkg:generic/sqlite@${sqliteVersion}`]);
  });
});
