import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { NestLogger } from './nest-logger';

/** Nest's own logs (start-up, errors) through the same pino instance that Fastify logs requests with. */
@Module({})
export class LoggingModule {
  static forRoot(logger: Logger): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: { logger },
          useExisting: true,
          // No per-request middleware: Fastify already gives every request its own child logger with the request
          // id, and running Nest middleware on Fastify costs a middie layer and an async context per request.
          forRoutes: [],
        }),
      ],
      providers: [NestLogger],
      exports: [NestLogger],
    };
  }
}
