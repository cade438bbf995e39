import type { OperationId } from '@petstore/contract';

/** The command that replaces each deprecated operation's command, as the service names its successor. */
const SUCCESSOR_COMMANDS: Partial<Record<OperationId, string>> = { getPet: 'petstore pets list' };

const CLIENT_NOTICE = /^petstore: (\w+) is deprecated by the service(?: and will be removed after ([^;]+?))?(?:; use .+ instead)?\.$/;

/**
 * The client's deprecation notice names an operation and an API path; a person at the terminal knows commands. Other
 * warnings pass as they are.
 */
export function inCliWords(warning: string, operation: OperationId, command: string): string {
  const notice = CLIENT_NOTICE.exec(warning);
  if (!notice || notice[1] !== operation) return warning;
  const sunset = notice[2] ? new Date(notice[2]) : undefined;
  const successor = SUCCESSOR_COMMANDS[operation];
  return (
    `petstore: "${command}" is deprecated by the service` +
    (sunset && !Number.isNaN(sunset.getTime()) ? ` and stops working after ${sunset.toISOString().slice(0, 10)}` : '') +
    (successor ? `; use "${successor}" instead` : '') +
    '.'
  );
}
