import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RouteSchema } from '@nestjs/platform-fastify';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { API_PREFIX, type Pet } from '@petstore/contract';
import { ListPetsQueryDto, NewPetDto } from '@petstore/contract/dto';
import { ApiKeyHolder } from '../auth/api-key-holder.decorator';
import type { AppConfig } from '../config/app-config';
import { publicBaseUrl } from '../config/public-base-url';
import { RouteRules } from '../http/route-rules';
import { GET_PET_HEADERS } from './get-pet-headers';
import { IdempotencyKeyHeader } from './idempotency/idempotency-key.decorator';
import { nextPageLink } from './next-page-link';
import { PetIdPipe } from './pet-id.pipe';
import { CREATE_PET_SCHEMA, GET_PET_SCHEMA, LIST_PETS_SCHEMA } from './pet-response-schemas';
import { CreatePetDocs, GetPetDocs, ListPetsDocs } from './pets-api-docs.decorator';
import { PetsService } from './pets.service';

@ApiTags('pets')
@Controller('pets')
export class PetsController {
  private baseUrl?: string;

  constructor(
    private readonly pets: PetsService,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Known once the server listens, which it does before any request: the address may be an ephemeral port. */
  private get publicBaseUrl(): string {
    this.baseUrl ??= publicBaseUrl(
      { publicBaseUrl: this.config.get('publicBaseUrl', { infer: true }), port: this.config.get('port', { infer: true }) },
      this.adapterHost.httpAdapter.getHttpServer().address(),
    );
    return this.baseUrl;
  }

  @Get()
  @RouteSchema(LIST_PETS_SCHEMA)
  @ListPetsDocs()
  async listPets(@Query() query: ListPetsQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<Pet[]> {
    const page = await this.pets.listPets(query);
    if (page.nextCursor) reply.header('link', nextPageLink(this.publicBaseUrl, query, page.nextCursor));
    return page.pets;
  }

  @Post()
  @RouteSchema(CREATE_PET_SCHEMA)
  @HttpCode(201)
  @RouteRules({ jsonBody: true, noQuery: true })
  @CreatePetDocs()
  async createPet(
    @IdempotencyKeyHeader() idempotencyKey: string | undefined,
    @Body() newPet: NewPetDto,
    @ApiKeyHolder() holder: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Pet> {
    const { pet, replayed } = await this.pets.createPet(newPet, idempotencyKey === undefined ? undefined : { holder, key: idempotencyKey });
    reply.header('location', `${API_PREFIX}/pets/${pet.id}`);
    if (replayed) reply.header('idempotent-replayed', 'true');
    return pet;
  }

  @Get(':petId')
  @RouteSchema(GET_PET_SCHEMA)
  @RouteRules({ headers: GET_PET_HEADERS, noQuery: true })
  @GetPetDocs()
  getPet(@Param('petId', PetIdPipe) petId: number): Promise<Pet> {
    return this.pets.getPet(petId);
  }
}
