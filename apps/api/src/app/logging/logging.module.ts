import { type DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';

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
          // Named wildcard (path-to-regexp 8): the default "*" makes Nest 11 warn at every start.
          forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
        }),
      ],
    };
  }
}
