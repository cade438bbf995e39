import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Who the request's API key belongs to (`env:…` or `key:<id>`), as bearer authentication named it. */
export const ApiKeyHolder = createParamDecorator(
  (_data: unknown, context: ExecutionContext): string | undefined => context.switchToHttp().getRequest<FastifyRequest>().apiKeyHolder,
);
