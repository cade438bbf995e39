import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { ApiKeysService } from './api-keys.service';

describe(ApiKeysService.name, () => {
  const keys = ['pk_first_key_0123456789', 'pk_second_key_0123456789'];
  const sut = new ApiKeysService({ get: () => keys } as unknown as ConfigService<AppConfig, true>);

  it('accepts every configured key', () => {
    for (const key of keys) expect(sut.isValid(key)).toBe(true);
  });

  it.each(['', 'pk_first_key_012345678', 'pk_first_key_01234567890', 'PK_FIRST_KEY_0123456789', 'x'.repeat(10_000)])(
    'refuses %j',
    (key) => expect(sut.isValid(key)).toBe(false),
  );

  it('keeps no key in memory, only digests', () => {
    expect(JSON.stringify(sut)).not.toContain('pk_first');
    expect(Object.values(sut).flat().some((value) => typeof value === 'string' && keys.includes(value))).toBe(false);
  });
});
