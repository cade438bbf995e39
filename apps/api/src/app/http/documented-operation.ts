import { applyDecorators } from '@nestjs/common';
import { ApiOperation, type ApiOperationOptions } from '@nestjs/swagger';
import { OPERATION_SCOPES, type OperationId } from '@petstore/contract';
import { RouteRules } from './route-rules';

/**
 * Declares an operation once for both its OpenAPI entry and its route's rules, so that metrics, traces, the scope
 * check and the document all name it alike. The scope it needs is written into its description.
 */
export const DocumentedOperation = (options: ApiOperationOptions & { operationId: OperationId }) => {
  const scope = OPERATION_SCOPES[options.operationId];
  return applyDecorators(
    ApiOperation({ ...options, description: `${options.description ?? ''} Needs an API key with the \`${scope}\` scope.`.trim() }),
    RouteRules({ operation: options.operationId, scope }),
  );
};
