import { readFileSync } from 'node:fs';

type Env = Record<string, string | undefined>;

/** The variables that may instead name a file holding their value (`API_KEYS_FILE`, …), for mounted secrets. */
export const FILE_SECRETS = ['API_KEYS', 'DATABASE_URL', 'DATABASE_MIGRATION_URL', 'REDIS_URL'] as const;
export type FileSecret = (typeof FILE_SECRETS)[number];

const isSet = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * The environment with each `NAME_FILE` among `names` replaced by `NAME`, read from that file, as the official
 * database images do (Docker and Kubernetes mount secrets as files, which keeps them out of the environment that
 * `ps`, crash reports and child processes see). A file's trailing line breaks are not part of the value; keys may be
 * one per line. Giving both forms, or a file that cannot be read, is a problem, returned with its variable.
 */
export function readFileSecrets(env: Env, names: readonly FileSecret[]): { env: Env; problems: Array<{ name: FileSecret; problem: string }> } {
  const resolved: Env = { ...env };
  const problems: Array<{ name: FileSecret; problem: string }> = [];
  for (const name of names) {
    const path = env[`${name}_FILE`];
    if (!isSet(path)) continue;
    if (isSet(env[name])) {
      problems.push({ name, problem: `${name}_FILE and ${name} are both set: give one of them` });
      continue;
    }
    try {
      const value = readFileSync(path.trim(), 'utf8').replace(/[\r\n]+$/, '');
      resolved[name] = name === 'API_KEYS' ? value.split(/\r?\n/).join(',') : value;
    } catch (error) {
      // The path is the operator's; the file's content is never shown.
      problems.push({ name, problem: `${name}_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} (${path.trim()})` });
    }
  }
  return { env: resolved, problems };
}
