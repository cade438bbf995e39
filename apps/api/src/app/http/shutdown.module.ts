import { Global, Module } from '@nestjs/common';
import { ShutdownState } from './shutdown-state';

/** Whether the instance is stopping, for those who answer differently then: readiness, metrics, the HTTP hooks. */
@Global()
@Module({ providers: [ShutdownState], exports: [ShutdownState] })
export class ShutdownModule {}
