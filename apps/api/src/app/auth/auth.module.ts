import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyStore } from './api-key.store';
import { ApiKeysService } from './api-keys.service';
import { BearerAuthGuard } from './bearer-auth.guard';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [
    ApiKeysService,
    { provide: ApiKeyStore, inject: [DataSource], useFactory: (dataSource: DataSource) => new ApiKeyStore(dataSource.getRepository(ApiKeyEntity)) },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
  ],
  exports: [ApiKeysService],
})
export class AuthModule {}
