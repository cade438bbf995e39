import { DataSource } from 'typeorm';
import { hashApiKey } from '../src/app/auth/api-key';
import { loadDatabaseConfig } from '../src/app/config/app-config';
import { dialectFor } from '../src/app/database/chosen-dialect';
import { migrations } from '../src/app/database/migrations';
import { AddKeyScopesAndRotation1764460800000 } from '../src/app/database/migrations/1764460800000-add-key-scopes-and-rotation';
import { startApp } from './support/test-app';
import { createTestDatabase } from './support/test-database';

// A database made before keys had scopes: the service migrates it on start, and no existing key loses access.
describe('the key scopes migration on an existing database', () => {
  it('gives every existing key both scopes', async () => {
    const database = await createTestDatabase();
    const key = 'pk_made_before_scopes_0123456789abcdefghijk';
    const earlier = migrations.slice(0, migrations.indexOf(AddKeyScopesAndRotation1764460800000));
    const dialect = dialectFor(loadDatabaseConfig({ DATABASE_URL: database.url }));
    const before = new DataSource({ ...(await dialect.options()), migrations: earlier });
    await dialect.connectOnce(before);
    await before.runMigrations();
    await before.query(
      `INSERT INTO api_keys (name, key_hash, shown_part, created_at) VALUES ('old', '${hashApiKey(key).toString('hex')}', '${key.slice(0, 12)}', 0)`,
    );
    await before.destroy();

    const sut = await startApp({ database });
    try {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      expect((await fetch(`${sut.origin}/v1/pets`, { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' })).status).toBe(201);
      expect((await fetch(`${sut.origin}/v1/pets`, { headers })).status).toBe(200);
      const [row] = (await sut.app.get(DataSource).query('SELECT scopes, replaces_id FROM api_keys')) as Array<Record<string, unknown>>;
      expect(row).toEqual({ scopes: 'pets:read pets:write', replaces_id: null });
    } finally {
      await sut.close();
      await database.drop();
    }
  });
});
