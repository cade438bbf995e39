import { RouteRules } from '../http/route-rules';

/**
 * Opts a handler, or every handler of a controller, out of authentication (the health probes): it declares the route
 * public in the route's config, the one place bearer authentication is decided from (see useBearerAuth).
 */
export const Public = () => RouteRules({ public: true });
