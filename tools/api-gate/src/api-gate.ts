import { diffSpecs, type DiffOutcome, type DiffResult, type DiffResultType } from 'openapi-diff';
import { comparableDocument } from './comparable-document';
import { contractRuleFindings } from './contract-rules';
import { type Finding, operationLabel } from './finding';
import { fieldChanges } from './field-changes';
import { isObject, type Json, type JsonObject, objectAt } from './json';
import { toOpenApi30 } from './openapi-30';
import { pathParameterFindings } from './path-parameter-rules';
import { securityFindings } from './security-rules';

/** What the gate found, and the version change it calls for (semver: breaking → major, additive → minor). */
export interface GateReport {
  releasedVersion: string;
  currentVersion: string;
  breaking: Finding[];
  minor: Finding[];
  change: 'major' | 'minor' | 'none';
  /** Breaking changes without a new major `info.version`: CI stops here. */
  refused: boolean;
}

const OPENAPI_DIFF_WORDS: Record<string, string> = {
  'path.remove': 'path removed',
  'path.add': 'path added',
  'method.remove': 'operation removed',
  'method.add': 'operation added',
  'request.body.scope.remove': 'accepts less than the release did',
  'request.body.scope.add': 'accepts more than the release did',
  'response.body.scope.add': 'may hold what the release never sent',
  'response.body.scope.remove': 'holds less than the release could',
  'response.status-code.remove': 'status code removed',
  'response.status-code.add': 'status code added',
  'response.required.header.remove': 'required header removed',
  'response.required.header.add': 'required header added',
  'response.optional.header.remove': 'optional header removed',
  'response.optional.header.add': 'optional header added',
};

const LOCATION = /^paths\.(.+?)\.(get|put|post|delete|options|head|patch|trace)(?:\.(.*))?$/;

/** `paths./pets.post.responses.409` as `POST /pets response 409`. */
function describeLocation(location: string): string {
  const match = LOCATION.exec(location);
  if (!match) return location.replace(/^paths\./, '');
  const [, path, method, rest = ''] = match;
  const response = /^responses\.([^.]+)/.exec(rest);
  const part = rest.startsWith('requestBody') && !path.startsWith('/~parameters') ? ' request body' : response ? ` response ${response[1]}` : '';
  return `${operationLabel(path, method)}${part}`;
}

/** The JSON body schema openapi-diff compared at a location (`requestBody…` or `responses.<status>…`). */
function bodySchemaAt(document: JsonObject, location: string): Json | undefined {
  const match = LOCATION.exec(location);
  if (!match) return undefined;
  const [, path, method, rest = ''] = match;
  const operation = objectAt(objectAt(document, 'paths')[path], method);
  const response = /^responses\.([^.]+)/.exec(rest);
  const body = rest.startsWith('requestBody') ? objectAt(operation, 'requestBody') : response ? objectAt(objectAt(operation, 'responses'), response[1]) : {};
  return objectAt(objectAt(body, 'content'), 'application/json').schema;
}

function fromOpenApiDiff(result: DiffResult<DiffResultType>, severity: Finding['severity'], before: JsonObject, after: JsonObject): Finding {
  const location = (result.sourceSpecEntityDetails[0] ?? result.destinationSpecEntityDetails[0])?.location ?? '';
  const fields = result.entity.includes('body.scope') ? fieldChanges(bodySchemaAt(before, location), bodySchemaAt(after, location)) : [];
  return {
    severity,
    where: describeLocation(location),
    what: `${OPENAPI_DIFF_WORDS[result.code] ?? result.code}${fields.length > 0 ? `: ${fields.join('; ')}` : ''}`,
    by: result.code,
  };
}

const versionOf = (document: JsonObject) => String(isObject(document.info) ? document.info.version : '');
const majorOf = (version: string) => Number.parseInt(version.split('.')[0] ?? '', 10);

/**
 * Compares the current document with the released one: openapi-diff on both as OpenAPI 3.0 (toOpenApi30), laid out
 * by comparableDocument, and our rules for what it does not read (security and path parameters' names on the
 * documents as written). A breaking change is refused unless the current
 * `info.version` has a new major (docs/releasing.md: how a major version is cut).
 */
export async function compareContracts(released: JsonObject, current: JsonObject): Promise<GateReport> {
  const [before, after] = [toOpenApi30(comparableDocument(released)), toOpenApi30(comparableDocument(current))];
  const outcome: DiffOutcome = await diffSpecs({
    sourceSpec: { content: JSON.stringify(before), location: 'the released document', format: 'openapi3' },
    destinationSpec: { content: JSON.stringify(after), location: 'the current document', format: 'openapi3' },
  });
  const rules = [...contractRuleFindings(before, after), ...securityFindings(released, current), ...pathParameterFindings(released, current)];
  const breaking = [
    ...(outcome.breakingDifferencesFound ? outcome.breakingDifferences.map((result) => fromOpenApiDiff(result, 'breaking', before, after)) : []),
    ...rules.filter((finding) => finding.severity === 'breaking'),
  ];
  // openapi-diff leaves changes of x- extensions unclassified: ours describe, they do not change the wire. A removed
  // optional header is one of our rules' breaks (contract-rules.ts), not the minor change openapi-diff calls it.
  const minor = [
    ...[...outcome.nonBreakingDifferences, ...outcome.unclassifiedDifferences]
      .filter((result) => result.code !== 'response.optional.header.remove')
      .map((result) => fromOpenApiDiff(result, 'minor', before, after)),
    ...rules.filter((finding) => finding.severity === 'minor'),
  ];
  const [releasedVersion, currentVersion] = [versionOf(released), versionOf(current)];
  const change = breaking.length > 0 ? 'major' : minor.length > 0 ? 'minor' : 'none';
  return { releasedVersion, currentVersion, breaking, minor, change, refused: change === 'major' && !(majorOf(currentVersion) > majorOf(releasedVersion)) };
}
