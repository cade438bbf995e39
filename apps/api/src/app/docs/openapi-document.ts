import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, getSchemaPath, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_VERSION } from '@petstore/contract';
import { ErrorDto, NewPetDto, PetDto } from '@petstore/contract/dto';
import type { AppConfig } from '../config/app-config';

export const BEARER_SCHEME = 'bearer';

/** The OpenAPI document, generated from the controllers' and the contract's decorators. */
export function buildOpenApiDocument(
  app: INestApplication,
  config: Pick<AppConfig, 'publicBaseUrl' | 'stagingBaseUrl'>,
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Store')
    .setDescription(
      'Manages the animals offered in a pet store. Every operation needs an API key sent as ' +
        '`Authorization: Bearer <key>`. Errors are always the `Error` object `{code, message, status}`.',
    )
    .setVersion(API_VERSION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer(config.publicBaseUrl, 'Production')
    // Keys are opaque strings, not JWTs (addBearerAuth would otherwise claim `bearerFormat: JWT`).
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key issued by the operator.' },
      BEARER_SCHEME,
    )
    .addSecurityRequirements(BEARER_SCHEME)
    .addTag('pets', 'Animals offered in the store.');
  if (config.stagingBaseUrl) builder.addServer(config.stagingBaseUrl, 'Staging');

  const options = builder.build();
  // setContact always writes `url` and `email`, and empty strings would not be valid ones.
  options.info.contact = { name: 'Pet Store team' };

  const document = SwaggerModule.createDocument(app, options, {
    // Paths are relative to the servers, which already end in /v1.
    ignoreGlobalPrefix: true,
    extraModels: [PetDto, NewPetDto, ErrorDto],
  });
  // `Pets` is a named array schema in the interface; decorators describe classes, so it is added here.
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      Pets: { type: 'array', description: 'A page of animals.', items: { $ref: getSchemaPath(PetDto) } },
    },
  };
  return document;
}
