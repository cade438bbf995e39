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
    // The request's own mark first: the metadata lookup is only needed for the few routes open without a key.
    if (context.switchToHttp().getRequest<FastifyRequest>().apiKeyHolder !== undefined) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    throw unauthorized();
  }
}
