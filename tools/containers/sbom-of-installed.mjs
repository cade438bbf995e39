// Usage (in the image's build stage, in the folder that holds node_modules): node sbom-of-installed.mjs SBOM.json
// npm sbom describes the installed tree as the lock file has it; the build then removes packages that only building
// needed (node-gyp, node-addon-api's headers). This leaves in the CycloneDX SBOM only the components still installed
// (name and version found in node_modules), and drops the references to the others, so that it says what the image
// holds.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** name@version of every package under `folder` (a node_modules), nested ones included. */
function installed(folder, found = new Set()) {
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

const file = process.argv[2];
const sbom = JSON.parse(readFileSync(file, 'utf8'));
const present = installed('node_modules');
const gone = new Set(sbom.components.filter(({ name, version }) => !present.has(`${name}@${version}`)).map(({ 'bom-ref': ref }) => ref));
sbom.components = sbom.components.filter(({ 'bom-ref': ref }) => !gone.has(ref));
sbom.dependencies = (sbom.dependencies ?? [])
  .filter(({ ref }) => !gone.has(ref))
  .map((dependency) => ({ ...dependency, dependsOn: (dependency.dependsOn ?? []).filter((ref) => !gone.has(ref)) }));
writeFileSync(file, `${JSON.stringify(sbom, null, 2)}\n`);
process.stderr.write(`SBOM: ${sbom.components.length} components; left out, as removed from the image: ${[...gone].join(', ') || 'none'}\n`);
