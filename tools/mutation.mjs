// Mutation testing (StrykerJS) of each project or area that has a configuration, one after the other (two cores):
// libs/*/stryker.config.json and apps/*/stryker/*.config.mjs. Incremental: a mutant whose code and covering tests are
// unchanged since the committed incremental file keeps its result. A score under a configuration's `thresholds.break`
// fails the command.
//
//   npm run mutation                      every configuration, incrementally
//   npm run mutation -- --force           every mutant again (after bulk test changes; commit the rewritten files)
//   npm run mutation -- --changed         only configurations whose sources or specs changed since their incremental
//                                         file was committed (CI: the recorded results already stand for the rest)
//   npm run mutation -- --only api-auth   one configuration, by its report name
import { execFileSync, spawnSync } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import { dirname, matchesGlob, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
process.chdir(root);
const { values: options } = parseArgs({
  options: { changed: { type: 'boolean', default: false }, only: { type: 'string' } },
  allowPositionals: true,
  strict: false,
});
// Anything else (--force, say) is Stryker's.
const passOn = process.argv.slice(2).filter((arg, i, all) => !['--changed', '--only'].includes(arg) && all[i - 1] !== '--only');

const configFiles = [...globSync('libs/*/stryker.config.json'), ...globSync('apps/*/stryker/*.config.mjs')].sort();

async function load(file) {
  if (file.endsWith('.json')) return JSON.parse(readFileSync(file, 'utf8'));
  return (await import(pathToFileURL(resolve(file)).href)).default;
}

/**
 * Whether a file decides the configuration's results: one it mutates (a glob of `mutate` and none of its `!` ones, so
 * an OpenAPI decorator an area leaves out does not count) or a spec that judges it.
 */
function decides(config, path) {
  const specDir = dirname(config.jest.configFile);
  const specs = (config.jest.config?.testMatch ?? []).map((glob) => glob.replace('<rootDir>', specDir));
  const [excluded, included] = [config.mutate.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1)), config.mutate.filter((glob) => !glob.startsWith('!'))];
  const mutated = included.some((glob) => matchesGlob(path, glob)) && !excluded.some((glob) => matchesGlob(path, glob));
  return mutated || specs.some((glob) => matchesGlob(path, glob));
}

/** Files changed since the incremental file was last committed, committed or not; null when it never was. */
function changedSince(incrementalFile) {
  const recordedAt = execFileSync('git', ['log', '-1', '--format=%H', '--', incrementalFile], { encoding: 'utf8' }).trim();
  if (!recordedAt) return null;
  const committed = execFileSync('git', ['diff', '--name-only', recordedAt, 'HEAD'], { encoding: 'utf8' });
  const uncommitted = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.slice(3));
  return [...committed.split('\n'), ...uncommitted].filter(Boolean);
}

let failed = false;
for (const file of configFiles) {
  const config = await load(file);
  const name = config.jsonReporter.fileName.split('/').at(-2);
  if (options.only && options.only !== name) continue;
  if (options.changed) {
    const touched = changedSince(config.incrementalFile)?.filter((path) => decides(config, path));
    if (touched && touched.length === 0) {
      console.log(`== mutation testing: ${name}: nothing it mutates or runs changed since its results were recorded`);
      continue;
    }
  }
  console.log(`== mutation testing: ${name} (${file})`);
  const run = spawnSync('npx', ['stryker', 'run', file, ...passOn], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
