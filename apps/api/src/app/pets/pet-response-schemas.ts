import type { FastifySchema } from 'fastify';
import { PET_JSON_SCHEMA } from './sql/pet-row';

// Response schemas let Fastify serialise pets with a compiled serializer (fast-json-stringify) instead of
// JSON.stringify; they also guarantee that nothing but the contract's fields ever leaves. Errors are not listed
// here, so they keep the generic serializer. The Pet schema of the OpenAPI document comes from the contract's
// decorated classes; this one from the Pet field list, which the tests hold to it, so that the two cannot drift apart.
export const PET_RESPONSE_SCHEMA = PET_JSON_SCHEMA;

export const LIST_PETS_SCHEMA: FastifySchema = { response: { 200: { type: 'array', items: PET_RESPONSE_SCHEMA } } };
export const CREATE_PET_SCHEMA: FastifySchema = { response: { 201: PET_RESPONSE_SCHEMA } };
export const GET_PET_SCHEMA: FastifySchema = { response: { 200: PET_RESPONSE_SCHEMA } };
