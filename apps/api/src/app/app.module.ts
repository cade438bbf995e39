import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import type { Logger } from 'pino';
import { AuthModule } from './auth/auth.module';
import type { AppConfig } from './config/app-config';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { ShutdownModule } from './http/shutdown.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { PetsModule } from './pets/pets.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  /** The configuration is validated before this is called; modules read it through ConfigService. */
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, skipProcessEnv: true, load: [() => config] }),
        LoggingModule.forRoot(logger),
        ShutdownModule,
        MetricsModule,
        DatabaseModule,
        RateLimitModule,
        AuthModule,
        PetsModule,
        WebhooksModule,
        EventsModule,
        HealthModule,
      ],
    };
  }
}
