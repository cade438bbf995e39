import { applyDecorators } from '@nestjs/common';
import { ApiOperation, type ApiOperationOptions } from '@nestjs/swagger';
import { RouteRules } from '../http/route-rules';

/** The contract's operations, as its OpenAPI document names them. */
export type Operation = 'listPets' | 'createPet' | 'getPet';

/**
 * Declares an operation once for both its OpenAPI entry and its route's rules, so that metrics, traces and the
 * document all name it alike.
 */
export const DocumentedOperation = (options: ApiOperationOptions & { operationId: Operation }) =>
  applyDecorators(ApiOperation(options), RouteRules({ operation: options.operationId }));
