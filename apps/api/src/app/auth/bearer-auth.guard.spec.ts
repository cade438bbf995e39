import type { ExecutionContext } from '@nestjs/common';
import type { Scope } from '@petstore/contract';
import type { ApiException } from '../errors/api-exception';
import type { RouteRules } from '../http/route-rules';
import { BearerAuthGuard } from './bearer-auth.guard';

// The guard is the second line of defence: it refuses what the bearer hook let through by mistake (a route registered
// without the hook, say), so it is tried here on requests the hook never saw.
describe(BearerAuthGuard.name, () => {
  const sut = new BearerAuthGuard();
  const context = (config: RouteRules, request: { apiKeyHolder?: string; apiKeyScopes?: readonly Scope[] } = {}) =>
    ({ switchToHttp: () => ({ getRequest: () => ({ ...request, routeOptions: { config } }) }) }) as unknown as ExecutionContext;
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return { status: (error as ApiException).getStatus(), code: (error as ApiException).code };
    }
    return undefined;
  };

  it('lets a public route through without a key', () => {
    expect(sut.canActivate(context({ public: true }))).toBe(true);
  });

  it('refuses a request nobody authenticated, 401', () => {
    expect(refusal(() => sut.canActivate(context({})))).toEqual({ status: 401, code: 'unauthorized' });
    expect(refusal(() => sut.canActivate(context({ scope: 'pets:read' })))).toEqual({ status: 401, code: 'unauthorized' });
  });

  it('refuses a key without the route’s scope, 403, and lets one with it through', () => {
    const reader = { apiKeyHolder: 'key:1', apiKeyScopes: ['pets:read'] as const };
    expect(refusal(() => sut.canActivate(context({ scope: 'pets:write' }, reader)))).toEqual({ status: 403, code: 'insufficient_scope' });
    expect(refusal(() => sut.canActivate(context({ scope: 'pets:write' }, { apiKeyHolder: 'key:1' })))).toEqual({ status: 403, code: 'insufficient_scope' });
    expect(sut.canActivate(context({ scope: 'pets:read' }, reader))).toBe(true);
    expect(sut.canActivate(context({}, reader))).toBe(true);
  });
});
