import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';

/**
 * Turns readiness false as soon as shutdown begins, so load balancers stop sending new requests. Nest then closes
 * the HTTP server (letting in-flight requests finish) before its shutdown hooks close the database.
 */
@Injectable()
export class ShutdownState implements BeforeApplicationShutdown {
  stopping = false;

  beforeApplicationShutdown(): void {
    this.stopping = true;
  }
}
