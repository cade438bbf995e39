import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { RELEASES, releaseHistory, releaseOf, releasesByVersion } from '@petstore/testing';
import { packClientOf } from './client-of-release';

// `npm run client -- <version> [--out <folder>]` and `npm run client -- --list`: the client of any release from this
// repository alone, with no registry and no git tag (docs/releasing.md, "Getting the client of a release").

const WORKSPACE = join(__dirname, '../../..');
// npm runs a script in the package's root; the folder the user typed the command in is INIT_CWD.
const HERE = process.env.INIT_CWD ?? process.cwd();
const SUBJECT_WIDTH = 60;

const say = (line: string) => process.stdout.write(`${line}\n`);
const shortened = (subject: string) => (subject.length > SUBJECT_WIDTH ? `${subject.slice(0, SUBJECT_WIDTH - 1)}…` : subject);
const workspaceVersion = (): string => JSON.parse(readFileSync(join(WORKSPACE, 'libs/client/package.json'), 'utf8')).version;

function list(): void {
  const current = workspaceVersion();
  say(`Releases, each with its release commit (the commit that added ${RELEASES}/<version>.json):`);
  for (const { version, commit, date, subject } of releasesByVersion()) {
    say(`  ${version.padEnd(8)} ${commit.slice(0, 12)}  ${date}  ${shortened(subject)}${version === current ? "  (this checkout's version)" : ''}`);
  }
  if (releaseHistory().shallow) say('This clone is shallow: releases older than its history are missing (git fetch --unshallow).');
}

/** How the user installs the tarball, from the folder they are in. */
function installCommand(tarball: string): string {
  const path = relative(HERE, tarball);
  return `npm install ${path.startsWith('..') || isAbsolute(path) ? tarball : `./${path}`}`;
}

async function pack(version: string, out: string): Promise<void> {
  const release = releaseOf(version);
  process.stderr.write(`Building @petstore/client ${version} from its release commit ${release.commit.slice(0, 12)} (${release.date}, "${shortened(release.subject)}") in a scratch git worktree…\n`);
  const tarball = await packClientOf(version, resolve(HERE, out));
  say(`Packed: ${tarball}`);
  say(`Install it with: ${installCommand(tarball)}`);
}

const program = new Command('npm run client --')
  .description(
    "Packs @petstore/client as released: built from the release commit's own sources (the commit that added " +
      `${RELEASES}/<version>.json) in a scratch git worktree, whatever this checkout holds; the current version too.`,
  )
  .argument('[version]', 'the release whose client to pack, e.g. 1.0.0')
  .option('--list', 'list the releases and their commits')
  .option('-o, --out <folder>', 'where to write the tarball', '.')
  .exitOverride()
  .action(async (version: string | undefined, options: { list?: boolean; out: string }) => {
    if (options.list) return list();
    if (!version) return program.help({ error: true });
    await pack(version, options.out);
  });

process.once('SIGINT', () => process.stderr.write('Interrupted: removing the scratch worktree.\n'));
program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    process.stderr.write(`client: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
});
