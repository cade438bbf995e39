import { type Finding, operationLabel } from './finding';
import { isObject, type Json, type JsonObject, objectAt } from './json';
import { servedOperations } from './path-parameter-rules';

/** One way to authenticate: each named scheme, with the scopes it must carry (all of them, together). */
type Requirement = ReadonlyMap<string, readonly string[]>;

const requirementsOf = (list: Json | undefined): Requirement[] | undefined =>
  Array.isArray(list)
    ? list.filter(isObject).map((entry) => new Map(Object.entries(entry).map(([scheme, scopes]) => [scheme, Array.isArray(scopes) ? scopes.map(String) : []])))
    : undefined;

/** What an operation asks: its own `security`, else the document's; none asked is one requirement of no scheme. */
function effectiveRequirements(document: JsonObject, operation: JsonObject): Requirement[] {
  const requirements = requirementsOf(operation.security) ?? requirementsOf(document.security) ?? [];
  return requirements.length > 0 ? requirements : [new Map()];
}

const describe = (requirement: Requirement) =>
  requirement.size === 0
    ? 'no authentication'
    : [...requirement].map(([scheme, scopes]) => (scopes.length > 0 ? `${scheme} (${scopes.join(', ')})` : scheme)).join(' + ');

/** A scheme's definition as a client must follow it: its type and where the credential goes, not its words. */
const definitionOf = (document: JsonObject, scheme: string): string => {
  const { description: _description, ...definition } = objectAt(objectAt(objectAt(document, 'components'), 'securitySchemes'), scheme);
  return JSON.stringify(definition);
};

/** Whether a client that authenticated one way against the release still can. */
const stillServed = (sent: Requirement, current: Requirement[], sameScheme: (scheme: string) => boolean) =>
  current.some((requirement) =>
    [...requirement].every(([scheme, scopes]) => sent.has(scheme) && sameScheme(scheme) && scopes.every((scope) => sent.get(scheme)?.includes(scope))),
  );

/**
 * Security requirements and scopes, which openapi-diff does not compare: requiring another scheme or more scopes, or
 * changing how a scheme sends its credential, breaks a client; asking less is additive.
 */
export function securityFindings(released: JsonObject, current: JsonObject): Finding[] {
  const findings: Finding[] = [];
  const sameScheme = (scheme: string) => definitionOf(released, scheme) === definitionOf(current, scheme);
  for (const { path, method, before, after } of servedOperations(released, current)) {
    const [old, now] = [effectiveRequirements(released, before), effectiveRequirements(current, after)];
    const where = operationLabel(path, method);
    const lost = old.filter((sent) => !stillServed(sent, now, sameScheme));
    for (const sent of lost) {
      const what = `security: a client authenticating with ${describe(sent)} is refused; it now needs ${now.map(describe).join(' or ')}`;
      findings.push({ severity: 'breaking', where, what, by: 'rule:security' });
    }
    if (lost.length === 0 && now.map(describe).sort().join('|') !== old.map(describe).sort().join('|')) {
      findings.push({ severity: 'minor', where, what: `security: ${old.map(describe).join(' or ')} → ${now.map(describe).join(' or ')}`, by: 'rule:security' });
    }
  }
  return findings;
}
