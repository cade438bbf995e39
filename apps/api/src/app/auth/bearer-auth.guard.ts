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
  /** @Public() by handler: metadata never changes at run time, and this runs on every request. */
  private readonly publicHandlers = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<FastifyRequest>().apiKeyHolder !== undefined || this.isPublic(context)) return true;
    throw unauthorized();
  }

  private isPublic(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let isPublic = this.publicHandlers.get(handler);
    if (isPublic === undefined) {
      isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [handler, context.getClass()]) === true;
      this.publicHandlers.set(handler, isPublic);
    }
    return isPublic;
  }
}
