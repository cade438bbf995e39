/**
 * A Fastify route as OpenAPI writes it, the form `http.route` takes in traces and metrics.
 * @example routeTemplate('/v1/pets/:petId') // '/v1/pets/{petId}'
 */
export const routeTemplate = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
