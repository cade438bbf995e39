import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { RouteRules } from '../http/route-rules';
import { insufficientScope, unauthorized } from './bearer-auth.hook';

/**
 * The second line of defence: the bearer hook has already decided at request start; this guard makes sure no
 * handler runs for a request it did not authenticate, or whose key lacks the route's scope, unless its route is public. It reads the same route config
 * that the hook was attached from (see useBearerAuth), so the two cannot disagree.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { public: isPublic, scope } = request.routeOptions.config as RouteRules;
    if (isPublic) return true;
    if (request.apiKeyHolder === undefined) throw unauthorized();
    if (scope !== undefined && !request.apiKeyScopes?.includes(scope)) throw insufficientScope(scope);
    return true;
  }
}
