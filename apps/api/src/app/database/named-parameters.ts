interface Translation {
  text: string;
  /** Parameter names in the order the placeholders take them. */
  names: string[];
}

/** Translations by style and SQL text: the statements are a fixed few, and reads run them thousands of times a second. */
const translations = { sqlite: new Map<string, Translation>(), postgres: new Map<string, Translation>() };

/**
 * `:name` placeholders to the driver's positional ones (`?` for SQLite, `$1…` for PostgreSQL), values in order.
 * TypeORM's own escaping inlines numbers into the SQL text on SQLite, which would make every id a new statement
 * to prepare and cache.
 */
export function bindNamed(sql: string, parameters: Record<string, unknown>, style: 'sqlite' | 'postgres'): [string, unknown[]] {
  let translation = translations[style].get(sql);
  if (!translation) {
    const names: string[] = [];
    const text = sql.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
      names.push(name);
      return style === 'sqlite' ? '?' : `$${names.length}`;
    });
    translation = { text, names };
    translations[style].set(sql, translation);
  }
  const values = translation.names.map((name) => {
    if (!(name in parameters)) throw new Error(`No value for the SQL parameter :${name}`);
    return parameters[name];
  });
  return [translation.text, values];
}
