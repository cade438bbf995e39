import { Global, Module } from '@nestjs/common';
import { RateLimits } from './rate-limits';

@Global()
@Module({ providers: [RateLimits], exports: [RateLimits] })
export class RateLimitModule {}
