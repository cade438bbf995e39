// Usage (in the image's dependencies stage, in the folder that holds node_modules, run by the node binary the runtime
// will carry): node sbom-of-image.mjs SBOM.json RUNTIME_ROOT
// Completes `npm sbom`'s CycloneDX document into one of the whole image, so that a scanner sees everything it holds:
// - npm packages: npm sbom describes the tree as the lock file has it; the build then removes packages that only
//   building needed (node-gyp, node-addon-api's headers), so only the components still installed stay;
// - the Node.js binary (this node: the one copied into the runtime), with the libraries compiled into it;
// - SQLite as compiled into the sqlite3 addon (its amalgamation, not a Debian package);
// - every Debian package of the runtime's root (RUNTIME_ROOT: its var/lib/dpkg/status and usr/lib/os-release).
// Each with a package URL (purl) and, where the NVD names the product, a CPE.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** name@version of every package under `folder` (a node_modules), nested ones included. */
export function installed(folder, found = new Set()) {
  if (!existsSync(folder)) return found;
  for (const entry of readdirSync(folder)) {
    if (entry.startsWith('.')) continue;
    const packages = entry.startsWith('@') ? readdirSync(join(folder, entry)).map((name) => join(folder, entry, name)) : [join(folder, entry)];
    for (const root of packages) {
      const manifest = join(root, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8'));
      found.add(`${name}@${version}`);
      installed(join(root, 'node_modules'), found);
    }
  }
  return found;
}

/** A purl segment: percent-encoded, with ':' left as the purl specification allows (Debian epochs, `1:2.41-5`). */
const purlPart = (text) => encodeURIComponent(text).replace(/%3A/g, ':');

/** A component known by a generic package URL and by the CPE under which the NVD lists its vulnerabilities. */
const generic = (name, version, [vendor, product], fields = {}) => ({
  type: 'library',
  'bom-ref': `pkg:generic/${name}@${version}`,
  name,
  version,
  purl: `pkg:generic/${name}@${version}`,
  cpe: `cpe:2.3:a:${vendor}:${product}:${version}:*:*:*:*:*:*:*`,
  ...fields,
});

/** Libraries compiled into the Node.js binary that the NVD tracks on their own: process.versions key, name, CPE. */
const NODE_BUNDLED = [
  ['openssl', 'openssl', ['openssl', 'openssl']],
  ['zlib', 'zlib', ['zlib', 'zlib']],
  ['uv', 'libuv', ['libuv', 'libuv']],
  ['ares', 'c-ares', ['c-ares', 'c-ares']],
  ['nghttp2', 'nghttp2', ['nghttp2', 'nghttp2']],
  ['sqlite', 'sqlite', ['sqlite', 'sqlite']],
];

const nodeComponent = () =>
  generic('node', process.versions.node, ['nodejs', 'node.js'], {
    type: 'application',
    description: 'The Node.js runtime (official build), /usr/local/bin/node',
    components: NODE_BUNDLED.filter(([key]) => process.versions[key]).map(([key, name, cpeName]) => {
      // e.g. zlib's "1.3.2.1-motley-456ae73": the release is its leading numbers.
      const version = /^[\d.]+\d/.exec(process.versions[key])?.[0] ?? process.versions[key];
      return generic(name, version, cpeName, { 'bom-ref': `pkg:generic/${name}@${version}?bundled-in=node` });
    }),
  });

const sqliteComponent = () =>
  generic('sqlite', createRequire(join(process.cwd(), 'package.json'))('sqlite3').VERSION, ['sqlite', 'sqlite'], {
    description: 'SQLite, compiled into the sqlite3 addon (node_modules/sqlite3/build/Release/node_sqlite3.node)',
  });

/** The installed packages of a dpkg status file, as dpkg-query lists them. */
export function debianPackages(status) {
  return status
    .split(/\n\n+/)
    .map((paragraph) => Object.fromEntries([...paragraph.matchAll(/^([A-Za-z-]+): ?(.*)$/gm)].map(([, field, value]) => [field, value])))
    .filter((fields) => fields.Package && / installed$/.test(fields.Status ?? ''))
    .map((fields) => {
      const [, sourceName, sourceVersion] = /^(\S+)(?: \((.+)\))?$/.exec(fields.Source ?? '') ?? [];
      return { name: fields.Package, version: fields.Version, arch: fields.Architecture, source: sourceName, sourceVersion: sourceVersion ?? fields.Version };
    });
}

function debianComponents(root) {
  const release = Object.fromEntries(
    [...readFileSync(join(root, 'usr/lib/os-release'), 'utf8').matchAll(/^(\w+)="?([^"\n]*)"?$/gm)].map(([, key, value]) => [key, value]),
  );
  const distro = `${release.ID}-${release.VERSION_ID}`;
  const packages = debianPackages(readFileSync(join(root, 'var/lib/dpkg/status'), 'utf8')).map(({ name, version, arch, source, sourceVersion }) => {
    const qualifiers = [`arch=${arch}`, `distro=${distro}`];
    if (source && source !== name) qualifiers.push(`upstream=${purlPart(sourceVersion === version ? source : `${source}@${sourceVersion}`)}`);
    const purl = `pkg:deb/${release.ID}/${purlPart(name)}@${purlPart(version)}?${qualifiers.join('&')}`;
    return { type: 'library', 'bom-ref': purl, name, version, purl };
  });
  const os = {
    type: 'operating-system',
    'bom-ref': `os:${distro}`,
    name: release.ID,
    version: readFileSync(join(root, 'etc/debian_version'), 'utf8').trim(),
    description: release.PRETTY_NAME,
    cpe: `cpe:2.3:o:debian:debian_linux:${release.VERSION_ID}:*:*:*:*:*:*:*`,
  };
  return { os, packages };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [file, runtimeRoot] = process.argv.slice(2);
  const sbom = JSON.parse(readFileSync(file, 'utf8'));
  const present = installed('node_modules');
  const gone = new Set(sbom.components.filter(({ name, version }) => !present.has(`${name}@${version}`)).map(({ 'bom-ref': ref }) => ref));
  const npmComponents = sbom.components.filter(({ 'bom-ref': ref }) => !gone.has(ref));
  const node = nodeComponent();
  const sqlite = sqliteComponent();
  const { os, packages } = debianComponents(runtimeRoot);
  sbom.components = [node, ...npmComponents, sqlite, os, ...packages];
  const sqlite3 = npmComponents.find(({ name }) => name === 'sqlite3');
  sbom.dependencies = [
    ...(sbom.dependencies ?? [])
      .filter(({ ref }) => !gone.has(ref))
      .map((dependency) => ({
        ...dependency,
        dependsOn: [
          ...(dependency.dependsOn ?? []).filter((ref) => !gone.has(ref)),
          ...(dependency.ref === sqlite3?.['bom-ref'] ? [sqlite['bom-ref']] : []),
          ...(dependency.ref === sbom.metadata?.component?.['bom-ref'] ? [node['bom-ref']] : []),
        ],
      })),
    { ref: sqlite['bom-ref'], dependsOn: [] },
    { ref: node['bom-ref'], dependsOn: [os['bom-ref']] },
    { ref: os['bom-ref'], dependsOn: packages.map(({ 'bom-ref': ref }) => ref) },
  ];
  writeFileSync(file, `${JSON.stringify(sbom, null, 2)}\n`);
  process.stderr.write(
    `SBOM: node ${node.version}, ${npmComponents.length} npm packages, SQLite ${sqlite.version}, ${packages.length} Debian packages of ${os.description}; ` +
      `left out, as removed from the image: ${[...gone].join(', ') || 'none'}\n`,
  );
}
