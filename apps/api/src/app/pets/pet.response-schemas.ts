import type { FastifySchema } from 'fastify';
import { PET_STATUSES } from '@petstore/contract';

// Response schemas let Fastify serialise pets with a compiled serializer (fast-json-stringify) instead of
// JSON.stringify; they also guarantee that nothing but the contract's fields ever leaves. Errors are not listed
// here, so they keep the generic serializer.
const pet = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: PET_STATUSES },
  },
  required: ['id', 'name', 'categoryId', 'status'],
} as const;

export const LIST_PETS_SCHEMA: FastifySchema = { response: { 200: { type: 'array', items: pet } } };
export const CREATE_PET_SCHEMA: FastifySchema = { response: { 201: pet } };
export const GET_PET_SCHEMA: FastifySchema = { response: { 200: pet } };
