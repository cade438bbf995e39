import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { RateLimits } from './rate-limits';

@Global()
@Module({
  providers: [{ provide: RateLimits, inject: [ConfigService], useFactory: RateLimits.create }],
  exports: [RateLimits],
})
export class RateLimitModule {}
