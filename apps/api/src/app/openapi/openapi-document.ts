import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_PREFIX, API_VERSION, LIST_LIMIT, OPERATION_SCOPES, SCOPES } from '@petstore/contract';
import { ErrorDto, NewPetDto, PetDto } from '@petstore/contract/dto';
import type { AppConfig } from '../config/app-config';
import { publicBaseUrl } from '../config/public-base-url';
import { allowOriginHeader } from '../http/cors';
import { PET_CREATED_EVENT, petCreatedEventSchema, webhooksDescription } from './webhooks-description';

export const BEARER_SCHEME = 'bearer';

const operationsNeeding = (scope: string) =>
  Object.entries(OPERATION_SCOPES)
    .filter(([, needed]) => needed === scope)
    .map(([operation]) => `\`${operation}\``)
    .join(', ');

// OpenAPI gives scopes to OAuth 2 schemes only, so a bearer scheme's scopes are told in its description.
const SCHEME_DESCRIPTION =
  'An API key issued by the operator. A key holds one or both scopes: ' +
  SCOPES.map((scope) => `\`${scope}\` (${operationsNeeding(scope)})`).join(', ') +
  '. Keys from `API_KEYS` hold both. A valid key without the scope an operation needs is answered `403` ' +
  '(`insufficient_scope`), with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`.';

/** Generated from the controllers' and the contract's decorators. */
export function buildOpenApiDocument(
  app: INestApplication,
  config: Pick<AppConfig, 'publicBaseUrl' | 'port' | 'stagingBaseUrl' | 'corsOrigins' | 'webhooks'>,
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Store')
    .setDescription(
      'Manages the animals offered in a pet store. Every operation needs an API key sent as ' +
        '`Authorization: Bearer <key>`. Errors are always the `Error` object `{code, message, status}`.',
    )
    .setVersion(API_VERSION)
    // 3.1 for `webhooks`; the decorators write no `nullable` or boolean `exclusiveMinimum`, which 3.1 reads differently.
    .setOpenAPIVersion('3.1.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // Opaque keys: addBearerAuth would otherwise claim `bearerFormat: JWT`.
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: SCHEME_DESCRIPTION },
      BEARER_SCHEME,
    )
    .addSecurityRequirements(BEARER_SCHEME)
    .addTag('pets', 'Animals offered in the store.')
    .addTag('events', 'What happens in the store, as it happens.');

  const options = builder.build();
  // setContact always writes `url` and `email`, which may not be empty.
  options.info.contact = { name: 'Pet Store team' };
  options.servers = servers(config, app.getHttpServer().address());

  const document = SwaggerModule.createDocument(app, options, {
    // Paths are relative to the servers, which already end in /v1.
    ignoreGlobalPrefix: true,
    extraModels: [PetDto, NewPetDto, ErrorDto],
  });
  // Decorators describe classes and routes, so these schemas are added here.
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      Pets: {
        type: 'array',
        description: `A page of animals: at most \`limit\`, which is at most ${LIST_LIMIT.max}.`,
        maxItems: LIST_LIMIT.max,
        items: { $ref: getSchemaPath(PetDto) },
      },
      [PET_CREATED_EVENT]: petCreatedEventSchema(getSchemaPath(PetDto)),
    },
  };
  // OpenAPI 3.1's `webhooks`, which @nestjs/swagger's OpenAPIObject does not type.
  Object.assign(document, { webhooks: webhooksDescription(config.webhooks, getSchemaPath(PET_CREATED_EVENT)) });
  if (config.corsOrigins.length > 0) declareAllowOrigin(document, config.corsOrigins);
  return document;
}

/**
 * First the server the document was loaded from, as a relative URL, so that "Try it out" calls the service the page
 * came from, without CORS. Written by hand, as addServer cannot write extensions.
 */
function servers(config: Pick<AppConfig, 'publicBaseUrl' | 'port' | 'stagingBaseUrl'>, listening: AddressInfo | string | null) {
  return [
    { url: API_PREFIX, description: 'This server: the one this document was loaded from, whichever environment it is (local, staging or production)', 'x-internal': false },
    {
      url: publicBaseUrl(config, listening),
      // Unset, it is where this process listens, on a laptop as much as anywhere: not called production there.
      description: config.publicBaseUrl ? 'Production' : 'Where this process listens (PUBLIC_BASE_URL, the production address, is not set)',
      'x-internal': false,
    },
    ...(config.stagingBaseUrl ? [{ url: config.stagingBaseUrl, description: 'Staging', 'x-internal': false }] : []),
  ];
}

/**
 * Decorators cannot depend on configuration, so the header is added here; the CORS hook runs before authentication,
 * so 401 and 429 carry it too.
 */
function declareAllowOrigin(document: OpenAPIObject, origins: readonly string[]): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.options, item.head, item.patch, item.trace]) {
      for (const response of Object.values(operation?.responses ?? {})) {
        if (!response || '$ref' in response) continue;
        response.headers = { ...response.headers, 'Access-Control-Allow-Origin': allowOriginHeader(origins) };
      }
    }
  }
}
