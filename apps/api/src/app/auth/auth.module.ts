import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysService } from './api-keys.service';
import { BearerAuthGuard } from './bearer-auth.guard';

@Module({
  providers: [ApiKeysService, { provide: APP_GUARD, useClass: BearerAuthGuard }],
  exports: [ApiKeysService],
})
export class AuthModule {}
