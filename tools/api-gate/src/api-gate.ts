import { diffSpecs, type DiffOutcome, type DiffResult, type DiffResultType } from 'openapi-diff';
import { comparableDocument, withPathItemsResolved } from './comparable-document';
import { contractRuleFindings } from './contract-rules';
import { type Finding, isMirror, operationLabel, requestBodyLabel, responseLabel } from './finding';
import { fieldChanges } from './field-changes';
import { isObject, type Json, type JsonObject, objectAt } from './json';
import { toOpenApi30 } from './openapi-30';
import { parameterStyleFindings } from './parameter-style-rules';
import { pathParameterFindings } from './path-parameter-rules';
import { securityFindings } from './security-rules';
import { Undecidable } from './undecidable';
import { unreadKeywordFindings } from './unread-keywords';

/** What the gate found, and the version change it calls for; a change it cannot weigh may break, so needs a major. */
export interface GateReport {
  releasedVersion: string;
  currentVersion: string;
  breaking: Finding[];
  undecided: Finding[];
  minor: Finding[];
  change: 'major' | 'minor' | 'none';
  /** Breaking or undecided changes without a new major `info.version`: CI stops here. */
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
};

const LOCATION = /^paths\.(.+?)\.(get|put|post|delete|options|head|patch|trace)(?:\.(.*))?$/;

/** `paths./pets.post.responses.409` as `POST /pets response 409`. */
function describeLocation(location: string): string {
  const match = LOCATION.exec(location);
  if (!match) return location.replace(/^paths\./, '');
  const [, path, method, rest = ''] = match;
  const response = /^responses\.([^.]+)/.exec(rest);
  if (response) return responseLabel(path, method, response[1]);
  return rest.startsWith('requestBody') ? requestBodyLabel(path, method) : operationLabel(path, method);
}

/** The JSON body schema openapi-diff compared at a location. */
function bodySchemaAt(document: JsonObject, location: string): Json | undefined {
  const match = LOCATION.exec(location);
  if (!match) return undefined;
  const [, path, method, rest = ''] = match;
  const operation = objectAt(objectAt(document, 'paths')[path], method);
  const response = /^responses\.([^.]+)/.exec(rest);
  const body = rest.startsWith('requestBody') ? objectAt(operation, 'requestBody') : response ? objectAt(objectAt(operation, 'responses'), response[1]) : {};
  return objectAt(objectAt(body, 'content'), 'application/json').schema;
}

const locationOf = (result: DiffResult<DiffResultType>) => (result.sourceSpecEntityDetails[0] ?? result.destinationSpecEntityDetails[0])?.location ?? '';

/** A path, operation or status code of a mirror comes and goes with the real one's, which openapi-diff reports too. */
const onlyMirrored = (result: DiffResult<DiffResultType>) => {
  const match = LOCATION.exec(locationOf(result)) ?? /^paths\.([^.]+)/.exec(locationOf(result));
  return match !== null && isMirror(match[1]) && !result.entity.includes('body.scope');
};

function fromOpenApiDiff(result: DiffResult<DiffResultType>, severity: Finding['severity'], before: JsonObject, after: JsonObject): Finding {
  const location = locationOf(result);
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
 * Compares the current document with the released one: openapi-diff on both as OpenAPI 3.0, our rules for what it
 * does not read, and the keywords neither reads compared as values. A breaking or undecided change, or a document the
 * gate cannot read whole, is refused unless `info.version` has a new major (docs/releasing.md).
 */
export async function compareContracts(released: JsonObject, current: JsonObject): Promise<GateReport> {
  try {
    return await compareReadable(released, current);
  } catch (error) {
    if (!(error instanceof Undecidable)) throw error;
    const undecided: Finding = { severity: 'undecided', where: 'the documents', what: error.message, by: 'rule:self-contained' };
    return report(released, current, [], [undecided], []);
  }
}

/** The version change the findings call for. */
function report(released: JsonObject, current: JsonObject, breaking: Finding[], undecided: Finding[], minor: Finding[]): GateReport {
  const [releasedVersion, currentVersion] = [versionOf(released), versionOf(current)];
  const change = breaking.length > 0 || undecided.length > 0 ? 'major' : minor.length > 0 ? 'minor' : 'none';
  return { releasedVersion, currentVersion, breaking, undecided, minor, change, refused: change === 'major' && !(majorOf(currentVersion) > majorOf(releasedVersion)) };
}

async function compareReadable(releasedAsWritten: JsonObject, currentAsWritten: JsonObject): Promise<GateReport> {
  const [released, current] = [releasedAsWritten, currentAsWritten].map(withPathItemsResolved);
  const comparable = [comparableDocument(released), comparableDocument(current)] as const;
  const undecided = unreadKeywordFindings(...comparable);
  const [before, after] = comparable.map(toOpenApi30);
  const outcome: DiffOutcome = await diffSpecs({
    sourceSpec: { content: JSON.stringify(before), location: 'the released document', format: 'openapi3' },
    destinationSpec: { content: JSON.stringify(after), location: 'the current document', format: 'openapi3' },
  });
  const rules = [...contractRuleFindings(before, after), ...securityFindings(released, current), ...pathParameterFindings(released, current), ...parameterStyleFindings(released, current)];
  const breaking = [
    ...(outcome.breakingDifferencesFound ? outcome.breakingDifferences.filter((result) => !onlyMirrored(result)).map((result) => fromOpenApiDiff(result, 'breaking', before, after)) : []),
    ...rules.filter((finding) => finding.severity === 'breaking'),
  ];
  // openapi-diff leaves changes of x- extensions unclassified: ours describe, they do not change the wire.
  const minor = [
    ...[...outcome.nonBreakingDifferences, ...outcome.unclassifiedDifferences].filter((result) => !onlyMirrored(result)).map((result) => fromOpenApiDiff(result, 'minor', before, after)),
    ...rules.filter((finding) => finding.severity === 'minor'),
  ];
  return report(released, current, breaking, undecided, minor);
}
