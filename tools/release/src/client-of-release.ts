import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtRelease } from '@petstore/testing';

/**
 * @petstore/client as released: built by its release commit's own sources and build in a scratch git worktree
 * (`builtRelease`: nothing in this checkout, changed or not, gets in), then packed by `npm pack` into `destination`.
 * Returns the tarball's path; the worktree is removed, whatever happened.
 */
export async function packClientOf(version: string, destination: string): Promise<string> {
  const scratch = mkdtempSync(join(tmpdir(), `petstore-client-${version}-`));
  try {
    const { folder, remove } = await builtRelease(version, 'client', scratch);
    try {
      const built = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name: string; version: string };
      if (built.name !== '@petstore/client' || built.version !== version) {
        throw new Error(`the build of release ${version} made ${built.name}@${built.version}, not @petstore/client@${version}`);
      }
      mkdirSync(destination, { recursive: true });
      // On failure execFileSync's error carries npm's stderr.
      const packed = execFileSync('npm', ['pack', folder, '--pack-destination', destination, '--ignore-scripts', '--json'], { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      return join(destination, (JSON.parse(packed) as Array<{ filename: string }>)[0].filename);
    } finally {
      await remove();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
