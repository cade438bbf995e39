import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { READ_DOCUMENTS } from './support/markdown-snippets';

const WORKSPACE = join(__dirname, '../../..');

/** A document's headings as written, without their `#`s; a `#` line inside a fenced block is code, not a heading. */
const headingsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => heading.trim());

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headingsOf(file)) {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
      .replace(/ /g, '-');
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    anchors.add(repeats === 0 ? base : `${base}-${repeats}`);
  }
  return anchors;
}

/** Whether a heading of the document begins with `section`, as a comment names one ("Stopping" for "Stopping: SIGTERM …"). */
const hasSection = (file: string, section: string) => headingsOf(file).some((heading) => heading.toLowerCase().startsWith(section.toLowerCase()));

/** The files of the repository (what a clone has) whose comments point into docs/. */
const SOURCES = execFileSync('git', ['ls-files', 'apps', 'libs', 'tools', 'deploy', '.ci'], { cwd: WORKSPACE, encoding: 'utf8' })
  .split('\n')
  .filter((path) => /\.(ts|tsx|js|mjs|cjs|sh|ya?ml|cfg|ini)$/.test(path) || path === '.ci/run')
  .filter((path) => existsSync(join(WORKSPACE, path)));

// A reference a reader follows must lead somewhere: links between the documents (to a file, and to a heading of it),
// and the comments in the code that send a reader to a document or to one of its sections by name.
describe('the references of the README, docs/ and the code', () => {
  const links = READ_DOCUMENTS.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target]) => target)
      .filter((target) => !/^[a-z]+:/i.test(target))
      .map((target) => {
        const [path, anchor] = target.split('#');
        return { file: relative(WORKSPACE, file), target, resolved: path === '' ? file : resolve(dirname(file), path), anchor };
      }),
  );

  it('finds the links it checks', () => {
    expect(links.length).toBeGreaterThan(50);
    expect(links.filter(({ anchor }) => anchor).length).toBeGreaterThan(5);
  });

  it('links only to files inside the repository that exist (a clone has nothing beside it)', () => {
    const broken = links.filter(({ resolved }) => !resolved.startsWith(`${WORKSPACE}/`) || !existsSync(resolved));
    expect(broken).toEqual([]);
  });

  it('links to a heading of a document only where the document has it', () => {
    const broken = links
      .filter(({ anchor, resolved }) => anchor && resolved.endsWith('.md') && existsSync(resolved))
      .filter(({ anchor, resolved }) => !anchorsOf(resolved).has(anchor))
      .map(({ file, target }) => `${file}: ${target}`);
    expect(broken).toEqual([]);
  });

  it('sends a reader of the code only to documents that exist, and to sections they have', () => {
    const references = SOURCES.flatMap((path) =>
      [...readFileSync(join(WORKSPACE, path), 'utf8').matchAll(/\bdocs\/([\w-]+\.md)(?:#([\w-]+)|,\s*"([^"\n]+)")?/g)].map(([, document, anchor, section]) => ({
        path,
        document: join(WORKSPACE, 'docs', document),
        anchor,
        section,
      })),
    );
    expect(references.length).toBeGreaterThan(20);
    const broken = references
      .filter(({ document, anchor, section }) => !existsSync(document) || (anchor && !anchorsOf(document).has(anchor)) || (section && !hasSection(document, section)))
      .map(({ path, document, anchor, section }) => `${path}: ${relative(WORKSPACE, document)} ${anchor ?? section ?? ''}`.trim());
    expect(broken).toEqual([]);
  });
});
