import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const WORKSPACE = join(__dirname, '../../../..');

export interface Snippet {
  /** e.g. `README.md:92`, the fence's line, for the failure to point at. */
  where: string;
  language: string;
  code: string;
}

/** The documents a newcomer reads: the README, docs/, and the client's README (which npm shows). */
export const READ_DOCUMENTS = [
  'README.md',
  'libs/client/README.md',
  ...readdirSync(join(WORKSPACE, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
].map((path) => join(WORKSPACE, path));

/** Every fenced code block of `files` in one of `languages`, in the order written. */
export function markdownSnippets(files: readonly string[], languages: readonly string[]): Snippet[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
      .filter(([, language]) => languages.includes(language))
      .map(([, language, code], index, all) => ({
        where: `${relative(WORKSPACE, file)}:${text.slice(0, all[index].index).split('\n').length}`,
        language,
        code,
      }));
  });
}
