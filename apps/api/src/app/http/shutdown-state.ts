import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';

/**
 * Turns readiness false as soon as shutdown begins, so load balancers stop sending new requests. Nest then closes
 * the HTTP server (http/shutdown.hook.ts: in-flight requests finish, with `Connection: close`), and the database
 * is closed once the last response is sent.
 */
@Injectable()
export class ShutdownState implements BeforeApplicationShutdown {
  stopping = false;

  beforeApplicationShutdown(): void {
    this.stopping = true;
  }
}
