import { bindNamed } from './named-parameters';

describe(bindNamed.name, () => {
  const sql = 'SELECT * FROM pets WHERE status = :status AND id > :afterId ORDER BY id LIMIT :take';
  const parameters = { status: 'sold', afterId: 20, take: 21 };

  it('binds named parameters positionally for SQLite, keeping the SQL text the same whatever the values', () => {
    expect(bindNamed(sql, parameters, 'sqlite')).toEqual(['SELECT * FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?', ['sold', 20, 21]]);
    expect(bindNamed(sql, { ...parameters, afterId: 99 }, 'sqlite')[0]).toBe(bindNamed(sql, parameters, 'sqlite')[0]);
  });

  it('numbers the placeholders for PostgreSQL', () => {
    expect(bindNamed(sql, parameters, 'postgres')).toEqual(['SELECT * FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3', ['sold', 20, 21]]);
  });

  it('refuses a placeholder without a value', () => {
    expect(() => bindNamed('SELECT :missing', {}, 'sqlite')).toThrow(/:missing/);
  });
});
