import type { FastifySchema } from 'fastify';
import { PET_STATUSES } from '@petstore/contract';

// Response schemas let Fastify serialise pets with a compiled serializer (fast-json-stringify) instead of
// JSON.stringify; they also guarantee that nothing but the contract's fields ever leaves. Errors are not listed
// here, so they keep the generic serializer. The Pet schema of the OpenAPI document comes from the contract's
// decorated classes; test/openapi.spec.ts holds this one to it, so that the two cannot drift apart.
export const PET_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: PET_STATUSES },
  },
  required: ['id', 'name', 'categoryId', 'status'],
} as const;

export const LIST_PETS_SCHEMA: FastifySchema = { response: { 200: { type: 'array', items: PET_RESPONSE_SCHEMA } } };
export const CREATE_PET_SCHEMA: FastifySchema = { response: { 201: PET_RESPONSE_SCHEMA } };
export const GET_PET_SCHEMA: FastifySchema = { response: { 200: PET_RESPONSE_SCHEMA } };
