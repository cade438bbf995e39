import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from './bearer-auth.hook';
import { IS_PUBLIC } from './public.decorator';

/**
 * The second line of defence: the bearer hook has already decided at request start; this guard makes sure no
 * handler runs for a request it did not authenticate, unless the handler is marked @Public().
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic || context.switchToHttp().getRequest<FastifyRequest>().apiKeyHolder !== undefined) return true;
    throw unauthorized();
  }
}
