/**
 * What a change of an API report means for the package's version: `major` when a declaration or one of its lines went
 * or was rewritten, or an interface gained a required member (code that builds one no longer compiles); `minor` when
 * declarations or members were only added or deprecated; `patch` when only doc comments changed. Conservative: a
 * rewritten line may be compatible, and then the reviewer decides.
 */
export type SurfaceChangeLevel = 'major' | 'minor' | 'patch' | 'none';

export interface SurfaceChange {
  level: SurfaceChangeLevel;
  /** One line per declaration that changed, e.g. `changed NewPet: -categoryId: number; +category: number;`. */
  reasons: string[];
}

const LEVELS: readonly SurfaceChangeLevel[] = ['none', 'patch', 'minor', 'major'];

interface Declaration {
  isInterface: boolean;
  code: string[];
  deprecations: number;
  docs: string[];
}

export function classifySurfaceChange(committedReport: string, newReport: string): SurfaceChange {
  const before = declarations(committedReport);
  const after = declarations(newReport);
  const changes: { level: SurfaceChangeLevel; reason: string }[] = [];
  for (const [name, old] of before) {
    const current = after.get(name);
    if (!current) changes.push({ level: 'major', reason: `removed ${name}` });
    else changes.push(...declarationChanges(name, old, current));
  }
  for (const name of after.keys()) {
    if (!before.has(name)) changes.push({ level: 'minor', reason: `added ${name}` });
  }
  const level = changes.reduce<SurfaceChangeLevel>((top, { level }) => (rank(level) > rank(top) ? level : top), 'none');
  return { level, reasons: changes.map(({ reason }) => reason) };
}

function declarationChanges(name: string, old: Declaration, current: Declaration): { level: SurfaceChangeLevel; reason: string }[] {
  const removed = missingFrom(current.code, old.code);
  const added = missingFrom(old.code, current.code);
  if (removed.length > 0) {
    const replacement = added.length > 0 ? ` +${added[0].trim()}` : '';
    return [{ level: 'major', reason: `changed ${name}: -${removed[0].trim()}${replacement}` }];
  }
  const required = current.isInterface ? added.find(isRequiredMember) : undefined;
  if (required) return [{ level: 'major', reason: `required member added to ${name}: +${required.trim()}` }];
  if (added.length > 0) return [{ level: 'minor', reason: `added to ${name}: +${added[0].trim()}` }];
  if (current.deprecations !== old.deprecations) return [{ level: 'minor', reason: `deprecation of ${name} changed` }];
  const docs = missingFrom(old.docs, current.docs).length + missingFrom(current.docs, old.docs).length;
  return docs > 0 ? [{ level: 'patch', reason: `doc comments of ${name} changed` }] : [];
}

/** The blocks between blank lines of the report's ```ts fence, by name, overloads merged. */
function declarations(report: string): Map<string, Declaration> {
  const text = report.replace(/\r\n/g, '\n');
  const fenced = text.slice(text.indexOf('```ts') + '```ts'.length, text.lastIndexOf('```'));
  const result = new Map<string, Declaration>();
  for (const block of fenced.split(/\n\s*\n/)) {
    const lines = block.split('\n').filter((line) => line.trim() !== '');
    if (lines.length === 0) continue;
    const code = lines.filter((line) => !isComment(line));
    const name = code.length > 0 ? declaredName(code[0]) : '(package documentation)';
    const found = result.get(name) ?? { isInterface: false, code: [], deprecations: 0, docs: [] };
    found.isInterface ||= /^(export )?(declare )?interface /.test(code[0] ?? '');
    found.code.push(...code);
    found.deprecations += lines.filter((line) => /^\s*\/\/ @deprecated/.test(line)).length;
    found.docs.push(...lines.filter(isComment));
    result.set(name, found);
  }
  return result;
}

const isComment = (line: string): boolean => line.trimStart().startsWith('//');

/** The name a report declaration introduces, else the line. */
function declaredName(line: string): string {
  const match = /^(?:export )?(?:declare )?(?:abstract )?(?:class|interface|type|enum|function|const|let|var|namespace) ([\w$]+)/.exec(line);
  return match ? match[1] : line;
}

/** A member line without `?` after its name: one every object of the interface must have. */
const isRequiredMember = (line: string): boolean => /^\s+(?:readonly\s+)?[\w$]+[:(<]/.test(line);

/** The lines of `b` that `a` lacks, counting repeats (members of one declaration often share a line). */
function missingFrom(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const line of a) left.set(line, (left.get(line) ?? 0) + 1);
  return b.filter((line) => {
    const count = left.get(line) ?? 0;
    left.set(line, count - 1);
    return count <= 0;
  });
}

const rank = (level: SurfaceChangeLevel): number => LEVELS.indexOf(level);
