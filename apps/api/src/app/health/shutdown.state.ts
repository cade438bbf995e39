import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';

/** Turns readiness false as soon as shutdown begins, so load balancers stop sending new requests. */
@Injectable()
export class ShutdownState implements BeforeApplicationShutdown {
  stopping = false;

  beforeApplicationShutdown(): void {
    this.stopping = true;
  }
}
