import type { FastifyInstance } from 'fastify';
import { parse } from 'secure-json-parse';
import { ApiException, validationFailed } from '../errors/api-exception';
import { REQUEST_BOUNDS } from './request-bounds';

/** Depth of the deepest array or object in a parsed JSON value, without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** JSON text is UTF-8 (RFC 8259): a body that is not, say "\xff", is malformed, not silently mended with U+FFFD. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON is the only body type: every other content type (text/plain included) is refused with 415 by Fastify.
 * Bodies carrying `__proto__` or `constructor.prototype` are refused instead of being merged anywhere.
 */
export function useJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    // As bytes: decoding as a string would replace invalid UTF-8 without a word, and then compare the decoded length
    // with Content-Length.
    { parseAs: 'buffer', bodyLimit: REQUEST_BOUNDS.bodyBytes },
    (_request, body, done) => {
      let text: string;
      try {
        text = utf8.decode(body as Buffer);
      } catch {
        done(new ApiException('malformed_json', 'Request body is not valid JSON: it is not UTF-8 text.'), undefined);
        return;
      }
      let value: unknown;
      try {
        value = parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch (error) {
        const forbidden = error instanceof SyntaxError && /prototype property/.test(error.message);
        done(
          forbidden
            ? validationFailed('Invalid request body: the property names __proto__ and constructor.prototype are not allowed.')
            : new ApiException('malformed_json', `Request body is not valid JSON: ${(error as Error).message}.`),
          undefined,
        );
        return;
      }
      if (jsonDepth(value) > REQUEST_BOUNDS.jsonDepth) {
        done(validationFailed(`Invalid request body: JSON must not be nested deeper than ${REQUEST_BOUNDS.jsonDepth} levels.`), undefined);
        return;
      }
      done(null, value);
    },
  );
}
