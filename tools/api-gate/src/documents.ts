import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObject, type JsonObject } from './json';

const ROOT = join(__dirname, '../../..');

/** The committed document (apps/api's COMMITTED_OPENAPI_DOCUMENT, written by `npm run openapi`). */
export const CURRENT_DOCUMENT = join(ROOT, 'libs/contract/openapi/openapi.json');
/** Each released document, named by its version: `1.0.0.json`. */
export const RELEASES_DIRECTORY = join(ROOT, 'libs/contract/openapi/releases');

const RELEASE_FILE = /^(\d+)\.(\d+)\.(\d+)\.json$/;

/** The released document with the highest version in `directory`. */
export function latestReleaseFile(directory = RELEASES_DIRECTORY): string {
  const versions = readdirSync(directory)
    .map((file) => RELEASE_FILE.exec(file))
    .filter((match) => match !== null)
    .map((match) => ({ file: match[0], parts: match.slice(1, 4).map(Number) }))
    .sort((a, b) => a.parts[0] - b.parts[0] || a.parts[1] - b.parts[1] || a.parts[2] - b.parts[2]);
  const latest = versions.at(-1);
  if (!latest) throw new Error(`no released document (<major>.<minor>.<patch>.json) in ${directory}`);
  return join(directory, latest.file);
}

export function readDocument(file: string): JsonObject {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isObject(parsed)) throw new Error(`${file} is not an OpenAPI document`);
  return parsed;
}
