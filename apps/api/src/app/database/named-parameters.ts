/**
 * `:name` placeholders to the driver's positional ones (`?` for SQLite, `$1…` for PostgreSQL), values in order.
 * TypeORM's own escaping inlines numbers into the SQL text on SQLite, which would make every id a new statement
 * to prepare and cache.
 */
export function bindNamed(sql: string, parameters: Record<string, unknown>, style: 'sqlite' | 'postgres'): [string, unknown[]] {
  const values: unknown[] = [];
  const text = sql.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
    if (!(name in parameters)) throw new Error(`No value for the SQL parameter :${name}`);
    values.push(parameters[name]);
    return style === 'sqlite' ? '?' : `$${values.length}`;
  });
  return [text, values];
}
