import { HEADERS_PREFIX, PARAMETERS_PREFIX, WEBHOOKS_PREFIX } from './comparable-document';

/** A change between the released document and the current one: breaking, additive, or one the gate cannot weigh. */
export interface Finding {
  severity: 'breaking' | 'minor' | 'undecided';
  /** The operation and part of it, in the service's words: `POST /pets request body (application/json)`. */
  where: string;
  what: string;
  /** Who noticed: openapi-diff's code (`method.remove`), or one of our rules (`rule:enum`). */
  by: string;
}

/** `GET /pets`, `GET /pets parameters`, `webhook pet.created`, from a path of the compared document. */
export function operationLabel(path: string, method: string): string {
  if (path.startsWith(HEADERS_PREFIX)) return operationLabel(path.slice(HEADERS_PREFIX.length), method);
  if (path.startsWith(WEBHOOKS_PREFIX)) return `webhook ${path.slice(WEBHOOKS_PREFIX.length)}`;
  if (path.startsWith(PARAMETERS_PREFIX)) return `${method.toUpperCase()} ${path.slice(PARAMETERS_PREFIX.length)} parameters`;
  return `${method.toUpperCase()} ${path}`;
}

/** `POST /pets response 201`, or `POST /pets response 201 headers` for its headers. */
export const responseLabel = (path: string, method: string, status: string) =>
  `${operationLabel(path, method)} response ${status}${path.startsWith(HEADERS_PREFIX) ? ' headers' : ''}`;

/** `POST /pets request body`, or `GET /pets parameters` for the body of a parameters mirror. */
export const requestBodyLabel = (path: string, method: string) => `${operationLabel(path, method)}${isMirror(path) ? '' : ' request body'}`;

/** A synthetic path that mirrors a real one's parameters or headers. */
export const isMirror = (path: string) => path.startsWith(PARAMETERS_PREFIX) || path.startsWith(HEADERS_PREFIX);

const LABELS: Record<Finding['severity'], string> = { breaking: 'BREAKING ', undecided: 'UNDECIDED', minor: 'minor    ' };

export const formatFinding = ({ severity, where, what, by }: Finding) => `${LABELS[severity]}  ${where}: ${what} [${by}]`;
