import { applyDecorators, PayloadTooLargeException } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { NewPetDto, PetDto } from '@petstore/contract/dto';
import { API_PREFIX, CURSOR_LENGTH, filterEntries, GET_PET_SUNSET, IDEMPOTENCY_KEY_LENGTH, LIST_LIMIT, LIST_LIMIT_RULE, MAX_ID, newPetProblems } from '@petstore/contract';
import { BASE_URL_MAX_LENGTH } from '../config/app-config';
import { invalidInput, unknownInput } from '../http/contract-validation.pipe';
import { unsupportedMediaType } from '../http/route-rules';
import { invalidIdempotencyKey } from './idempotency/idempotency-key.decorator';
import { invalidPetId } from './pet-id.pipe';
import { idempotencyKeyInUse, idempotencyKeyReused, petNotFound } from './pet-errors';
import { fixedHeader, type HeaderDocs, RETRY_AFTER_HEADER, stringHeader } from '../http/header-docs';
import { DocumentedOperation } from '../http/documented-operation';
import { responses } from '../operation-docs/operation-responses';
import { GET_PET_HEADERS } from './get-pet-headers';

// OpenAPI for the three operations, kept beside the controller so that its handlers stay one line each.

const deprecationHeaders: HeaderDocs = {
  Deprecation: fixedHeader('RFC 9745: this operation is deprecated.', GET_PET_HEADERS.deprecation),
  Sunset: fixedHeader('RFC 8594: when this operation will be removed.', GET_PET_HEADERS.sunset),
  Link: fixedHeader('The successor operation.', GET_PET_HEADERS.link),
};

// `<{PUBLIC_BASE_URL}/pets?limit=…&status=…&cursor=…>; rel="next"`, with every part at its longest.
const NEXT_LINK_MAX_LENGTH =
  BASE_URL_MAX_LENGTH + `<>; rel="next"/pets?limit=${LIST_LIMIT.max}&status=available&cursor=`.length + CURSOR_LENGTH.max;

export const ListPetsDocs = () => {
  const answers = responses('listPets', {});
  return applyDecorators(
    DocumentedOperation({
      operationId: 'listPets',
      summary: 'List animals',
      description:
        `Animals ordered by \`id\` ascending, at most \`limit\` (default ${LIST_LIMIT.default}) per page. Optional filters, ` +
        `all applying together: ${filterEntries().map(([name, { hint }]) => `\`${name}\`, ${hint}`).join('; ')}. ` +
        'When more exist, `Link: <…>; rel="next"` gives the next page.',
    }),
    ApiResponse({
      status: 200,
      description: 'A page of animals; `[]` when none match.',
      schema: { $ref: getSchemaPath('Pets') },
      headers: answers.authenticated({
        Link: stringHeader('RFC 8288 link to the next page, when there is one (`rel="next"`).', {
          maxLength: NEXT_LINK_MAX_LENGTH,
          pattern: '^<https?://[^>]+>; rel="next"$',
          example: '<https://api.example.com/v1/pets?limit=20&cursor=cDEuNDI>; rel="next"',
        }),
      }),
    }),
    answers.error(400, 'A query parameter is invalid or unknown (`validation_failed`).', {
      limit: ['limit=101', invalidInput('query', [LIST_LIMIT_RULE.refusal('limit', 101)])],
      unknown_parameter: ['A misspelt parameter: staus=sold', unknownInput('query', ['staus'])],
    }),
    ...answers.common(),
  );
};

export const CreatePetDocs = () => {
  const answers = responses('createPet', {});
  return applyDecorators(
    DocumentedOperation({
      operationId: 'createPet',
      summary: 'Add an animal',
      description:
        'Adds an animal; the service assigns its `id`. `status` is `available` when omitted. ' +
        'Send an `Idempotency-Key` to make retries safe: for 24 hours, a create with the same key and an equal JSON ' +
        'body is answered with the original `201` (same `id`) instead of adding another animal.',
    }),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Optional: leave it empty to add a pet without one. Otherwise a new value for each pet you mean to add (a ' +
        'UUID, say), kept 24 hours per API key: a retry with the same key and an equal body returns the original ' +
        'response instead of adding another pet; the same key with another body is `422`; a retry while the first is ' +
        'still running is `409`. Never reuse one value for different pets.',
      // No example: Swagger UI's "Try it out" would fill it in, and every create after the first would share it.
      schema: { type: 'string', minLength: IDEMPOTENCY_KEY_LENGTH.min, maxLength: IDEMPOTENCY_KEY_LENGTH.max, pattern: '^[\\x21-\\x7E]+$' },
    }),
    ApiBody({ type: NewPetDto, required: true }),
    ApiResponse({
      status: 201,
      description: 'Animal added; the body includes the assigned `id`.',
      type: PetDto,
      headers: answers.authenticated({
        Location: stringHeader('Path of the new animal.', {
          maxLength: `${API_PREFIX}/pets/${MAX_ID}`.length,
          pattern: `^${API_PREFIX}/pets/[1-9][0-9]*$`,
          example: `${API_PREFIX}/pets/42`,
        }),
        'Idempotent-Replayed': fixedHeader('Present when this answers an earlier create with the same `Idempotency-Key`.', 'true'),
      }),
    }),
    answers.error(
      400,
      'The body is missing required fields, has invalid or unknown ones (`validation_failed`), is not JSON ' +
        `(\`malformed_json\`), or \`Idempotency-Key\` is empty or longer than ${IDEMPOTENCY_KEY_LENGTH.max} characters (\`validation_failed\`).`,
      {
        invalid_fields: ['Every invalid field at once', invalidInput('body', Object.values(newPetProblems({ name: ' ', categoryId: 2.5 })))],
        missing_field: ['A required field left out', invalidInput('body', Object.values(newPetProblems({ name: 'Rex' })))],
        idempotency_key: ['An empty Idempotency-Key', invalidIdempotencyKey('')],
      },
    ),
    answers.error(
      409,
      'A create with this `Idempotency-Key` is still running (`idempotency_key_in_use`); retry after it.',
      { idempotency_key_in_use: ['The same key while the first create runs', idempotencyKeyInUse()] },
      RETRY_AFTER_HEADER,
    ),
    answers.error(422, 'This `Idempotency-Key` was used with a different body (`idempotency_key_reused`).', {
      idempotency_key_reused: ['The same key with another body', idempotencyKeyReused()],
    }),
    answers.error(413, 'The body is larger than 16 KiB (`payload_too_large`).', {
      payload_too_large: ['A body over 16 KiB', new PayloadTooLargeException()],
    }),
    answers.error(415, 'The body is not `application/json` (`unsupported_media_type`).', {
      unsupported_media_type: ['Content-Type: text/plain', unsupportedMediaType()],
    }),
    ...answers.common({ writes: true }),
  );
};

export const GetPetDocs = () => {
  const answers = responses('getPet', deprecationHeaders);
  return applyDecorators(
    DocumentedOperation({
      operationId: 'getPet',
      summary: 'Get an animal (deprecated)',
      deprecated: true,
      description:
        `Deprecated: this operation will be removed on ${GET_PET_SUNSET.toISOString().slice(0, 10)} ` +
        `(${GET_PET_HEADERS.sunset}). Use \`GET /pets\` with the \`status\` filter instead. ` +
        'Every response carries `Deprecation`, `Sunset` and a `successor-version` link.',
    }),
    ApiParam({
      name: 'petId',
      description:
        'Identifier of the animal. Ids are sequential integers (int64 by the interface), so they are not secret: ' +
        `access is governed by the API key, not by id secrecy. An integer outside 1 to ${MAX_ID} (up to int64 ` +
        'limits) names no animal and is answered `404`.',
      schema: { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID, example: 42 },
    }),
    ApiResponse({ status: 200, description: 'The animal exists.', type: PetDto, headers: answers.authenticated() }),
    answers.error(400, '`petId` is not a base-10 integer, or a query parameter was sent (`validation_failed`).', {
      pet_id: ['/pets/abc', invalidPetId()],
    }),
    answers.error(404, 'No animal has this id (`not_found`).', { not_found: ['/pets/42 when there is none', petNotFound(42)] }),
    ...answers.common(),
  );
};
