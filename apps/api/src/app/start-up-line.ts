import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '@petstore/contract';
import { publicBaseUrl } from './config/public-base-url';
import { DOCS_PATH } from './openapi/setup-docs';
import { STOREFRONT_PATH } from './storefront/serve-storefront';

/**
 * Once listening, one `info` line that says where the API, Swagger UI and (when served) the storefront answer on this
 * machine, and the address clients are told when PUBLIC_BASE_URL differs: the first thing a person starting the
 * service looks for in its output.
 */
export function announceAddresses(fastify: FastifyInstance, { storefront, configuredBaseUrl }: { storefront: boolean; configuredBaseUrl?: string }): void {
  fastify.addHook('onListen', function (done) {
    const origin = publicBaseUrl({ port: 0 }, this.server.address()).slice(0, -API_PREFIX.length);
    const addresses = {
      api: `${origin}${API_PREFIX}`,
      docs: `${origin}/${DOCS_PATH}`,
      ...(storefront ? { storefront: `${origin}${STOREFRONT_PATH}/` } : {}),
    };
    const told = configuredBaseUrl && configuredBaseUrl !== addresses.api ? `; clients are told ${configuredBaseUrl} (PUBLIC_BASE_URL)` : '';
    this.log.info(
      { addresses, ...(told ? { publicBaseUrl: configuredBaseUrl } : {}) },
      `Serving the API at ${addresses.api}, Swagger UI at ${addresses.docs}` +
        (addresses.storefront ? ` and the storefront at ${addresses.storefront}` : '') +
        told,
    );
    done();
  });
}
