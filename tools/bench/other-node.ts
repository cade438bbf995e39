import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { SERVICE_MAIN } from '@petstore/testing';

const run = promisify(execFile);

/** The built service and the reference, each installed with native addons built for another Node.js binary. */
export interface OtherNode {
  /** The binary, as given. */
  node: string;
  /** e.g. v20.20.2 */
  version: string;
  /** The copy of dist/apps/api/main.js whose node_modules were built by that Node.js. */
  serviceMain: string;
  /** A copy of reference-server.mjs beside a better-sqlite3 built by that Node.js. */
  referenceScript: string;
}

/**
 * Native addons are built for one Node.js ABI, so the workspace's own node_modules cannot serve both: the same service
 * build's dependencies are installed again under `dir`, by npm running on `node`, against that Node.js's own headers.
 */
export async function prepareOtherNode(node: string, dir: string): Promise<OtherNode> {
  const version = (await run(node, ['--version'])).stdout.trim();
  // The official layout (bin/node beside include/node), which Debian's /usr/bin/node shares.
  const nodedir = dirname(dirname(realpathSync(node)));
  if (!existsSync(join(nodedir, 'include', 'node', 'node_api.h'))) {
    throw new Error(`--also-node ${node}: no headers in ${nodedir}/include/node to build sqlite3 and better-sqlite3 for ${version} with`);
  }
  const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}`, npm_config_nodedir: nodedir, npm_config_engine_strict: 'false' };
  const npm = (cwd: string, args: string[]) =>
    run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env, maxBuffer: 64 * 1024 * 1024 }).catch((error: Error & { stderr?: string }) => {
      throw new Error(`npm ${args.join(' ')} for ${version} in ${cwd} failed: ${error.stderr ?? error.message}`);
    });
  const home = join(dir, `node-${version}`);
  const service = join(home, 'service');
  cpSync(dirname(SERVICE_MAIN), service, { recursive: true });
  // npm runs a dependency's build script only where the project's package.json allows it.
  const manifest = JSON.parse(readFileSync(join(service, 'package.json'), 'utf8'));
  writeFileSync(join(service, 'package.json'), JSON.stringify({ ...manifest, allowScripts: { sqlite3: true } }));
  process.stderr.write(`installing the service's dependencies for node ${version} (builds sqlite3)\n`);
  await npm(service, ['ci', '--omit=dev']);
  const reference = join(home, 'reference');
  mkdirSync(reference, { recursive: true });
  writeFileSync(join(reference, 'package.json'), JSON.stringify({ private: true, allowScripts: { 'better-sqlite3': true } }));
  copyFileSync(join(__dirname, 'reference-server.mjs'), join(reference, 'reference-server.mjs'));
  // The workspace's better-sqlite3, except on a Node.js older than 22, which its version 13 does not run on: 12.11.1 is
  // the last that does.
  const workspaceVersion = JSON.parse(readFileSync(require.resolve('better-sqlite3/package.json'), 'utf8')).version as string;
  const betterSqlite = Number(/^v(\d+)/.exec(version)?.[1]) >= 22 ? workspaceVersion : '12.11.1';
  process.stderr.write(`installing better-sqlite3 ${betterSqlite} for node ${version}\n`);
  await npm(reference, ['install', '--no-save', '--no-package-lock', `better-sqlite3@${betterSqlite}`]);
  // A build for the wrong ABI loads and crashes at once: found here rather than as a server that never answers.
  for (const [folder, addon] of [[service, 'sqlite3'], [reference, 'better-sqlite3']]) {
    await run(node, ['-e', `require(${JSON.stringify(addon)})`], { cwd: folder }).catch((error: Error) => {
      throw new Error(`${addon} as installed for node ${version} in ${folder} does not load: ${error.message}`);
    });
  }
  return { node, version, serviceMain: join(service, 'main.js'), referenceScript: join(reference, 'reference-server.mjs') };
}
