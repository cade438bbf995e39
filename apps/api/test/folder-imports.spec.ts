import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { preProcessFile } from 'typescript';

// The folders of apps/api/src/app stand in layers (docs/architecture.md): no folder imports one that imports it back,
// directly or round a longer loop. Read from the sources' own imports, tests excluded.

const APP = resolve(__dirname, '../src/app');

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The top-level folder of app/ a file is in; files at app/'s root (the app module, createApp) stand above all. */
const folderOf = (path: string): string | undefined => {
  const parts = relative(APP, path).split(sep);
  return parts.length > 1 && !parts[0].startsWith('..') ? parts[0] : undefined;
};

/** folder → folder it imports → the imports that make the arrow ("file -> import"). */
function folderGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sources(APP)) {
    const from = folderOf(file);
    if (!from) continue;
    for (const { fileName } of preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(resolve(dirname(file), fileName));
      if (!to || to === from) continue;
      const arrows = graph.get(from) ?? new Map<string, string[]>();
      arrows.set(to, [...(arrows.get(to) ?? []), `${relative(APP, file)} -> ${fileName}`]);
      graph.set(from, arrows);
    }
  }
  return graph;
}

/** Every loop of folders, each as the path that closes it, found by a depth-first walk. */
function loops(graph: Map<string, Map<string, string[]>>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (folder: string, path: string[]) => {
    if (path.includes(folder)) {
      found.push([...path.slice(path.indexOf(folder)), folder]);
      return;
    }
    if (done.has(folder)) return;
    for (const next of graph.get(folder)?.keys() ?? []) walk(next, [...path, folder]);
    done.add(folder);
  };
  for (const folder of graph.keys()) walk(folder, []);
  return found;
}

describe('the folders of apps/api/src/app', () => {
  const graph = folderGraph();

  it('are read from the sources: the features import the layers below them', () => {
    // A guard on the reading itself, so that a reader that found nothing cannot pass the test below.
    expect([...(graph.get('pets')?.keys() ?? [])]).toEqual(expect.arrayContaining(['database', 'http', 'errors']));
  });

  it('import one another in one direction only: no loop, direct or longer', () => {
    const shown = loops(graph).map((loop) =>
      loop
        .slice(1)
        .map((to, index) => `${loop[index]} -> ${to} (${graph.get(loop[index])?.get(to)?.[0]})`)
        .join(', '),
    );
    expect(shown).toEqual([]);
  });
});
