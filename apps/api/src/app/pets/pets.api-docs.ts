import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorDto, NewPetDto, PetDto } from '@petstore/contract/dto';
import { GET_PET_SUNSET, LIST_LIMIT } from '@petstore/contract';
import { GET_PET_HEADERS } from './get-pet.headers';

// OpenAPI for the three operations, kept beside the controller so that its handlers stay one line each.

type HeaderDocs = Record<string, ReturnType<typeof stringHeader>>;

const stringHeader = (description: string, example?: string) => ({ description, schema: { type: 'string', example } });
const error = (status: number, description: string, headers?: HeaderDocs) =>
  ApiResponse({ status, description, type: ErrorDto, ...(headers && { headers }) });

const commonErrors = (headers?: HeaderDocs) => [
  error(401, 'Missing or invalid API key (`unauthorized`).', {
    'WWW-Authenticate': stringHeader('The scheme to authenticate with.', 'Bearer'),
    ...headers,
  }),
  error(429, 'Too many requests for this key, or too many failed authentications from this address (`rate_limited`).', {
    'Retry-After': stringHeader('Seconds to wait before trying again.', '1'),
    'RateLimit-Policy': stringHeader('The limit, as IETF RateLimit-Policy.', '"default";q=100;w=1'),
    RateLimit: stringHeader('What is left of it, as IETF RateLimit.', '"default";r=0;t=1'),
    ...headers,
  }),
  error(500, 'The service failed unexpectedly (`internal_error`).', headers),
  error(503, 'The database cannot serve right now (`service_unavailable`); retry after `Retry-After`.', {
    'Retry-After': stringHeader('Seconds to wait before trying again.', '1'),
    ...headers,
  }),
];

const deprecationHeaders: HeaderDocs = {
  Deprecation: stringHeader('RFC 9745: this operation is deprecated.', GET_PET_HEADERS.deprecation),
  Sunset: stringHeader('RFC 8594: when this operation will be removed.', GET_PET_HEADERS.sunset),
  Link: stringHeader('The successor operation.', GET_PET_HEADERS.link),
};

export const ListPetsDocs = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'listPets',
      summary: 'List animals',
      description:
        `Animals ordered by \`id\` ascending, at most \`limit\` (default ${LIST_LIMIT.default}) per page, optionally ` +
        'only those with one `status`. When more exist, `Link: <…>; rel="next"` gives the next page.',
    }),
    ApiResponse({
      status: 200,
      description: 'A page of animals; `[]` when none match.',
      schema: { $ref: getSchemaPath('Pets') },
      headers: { Link: stringHeader('RFC 8288 link to the next page, when there is one (`rel="next"`).') },
    }),
    error(400, 'A query parameter is invalid or unknown (`validation_failed`).'),
    ...commonErrors(),
  );

export const CreatePetDocs = () =>
  applyDecorators(
    ApiOperation({
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
        'A unique value per intended create (e.g. a UUID), kept 24 hours per API key. A retry with the same key and ' +
        'an equal body returns the original response; the same key with another body is `422`; a retry while the ' +
        'first is still running is `409`.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$', example: '4f8a1c52-6a4e-4b7e-9b0a-3f1e2d7c9a10' },
    }),
    ApiBody({ type: NewPetDto, required: true }),
    ApiResponse({
      status: 201,
      description: 'Animal added; the body includes the assigned `id`.',
      type: PetDto,
      headers: {
        Location: stringHeader('Path of the new animal.', '/v1/pets/42'),
        'Idempotent-Replayed': stringHeader('`true` when this answers an earlier create with the same `Idempotency-Key`.', 'true'),
      },
    }),
    error(
      400,
      'The body is missing required fields, has invalid or unknown ones (`validation_failed`), is not JSON ' +
        '(`malformed_json`), or `Idempotency-Key` is empty or longer than 255 characters (`validation_failed`).',
    ),
    error(409, 'A create with this `Idempotency-Key` is still running (`idempotency_key_in_use`); retry after it.', {
      'Retry-After': stringHeader('Seconds to wait before trying again.', '1'),
    }),
    error(422, 'This `Idempotency-Key` was used with a different body (`idempotency_key_reused`).'),
    error(413, 'The body is larger than 16 KiB (`payload_too_large`).'),
    error(415, 'The body is not `application/json` (`unsupported_media_type`).'),
    ...commonErrors(),
  );

export const GetPetDocs = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'getPet',
      summary: 'Get an animal (deprecated)',
      deprecated: true,
      description:
        `Deprecated: this operation will be removed on ${GET_PET_SUNSET.toISOString().slice(0, 10)} ` +
        `(${GET_PET_HEADERS.sunset}). Use \`GET /pets\` with the \`status\` filter instead. ` +
        'Every response carries `Deprecation`, `Sunset` and a `successor-version` link.',
    }),
    ApiResponse({ status: 200, description: 'The animal exists.', type: PetDto, headers: deprecationHeaders }),
    error(
      400,
      '`petId` is not a base-10 integer, or a query parameter was sent (`validation_failed`).',
      deprecationHeaders,
    ),
    error(404, 'No animal has this id (`not_found`).', deprecationHeaders),
    ...commonErrors(deprecationHeaders),
  );
