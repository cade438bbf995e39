// Read by test-database.ts when it loads: this Jest project runs the HTTP suite on PostgreSQL through PgBouncer,
// which pgbouncer-global-setup.ts started (PETSTORE_TEST_PGBOUNCER_ORIGIN).
process.env.PETSTORE_TEST_DATABASE = 'postgres';
process.env.PETSTORE_TEST_VIA_PGBOUNCER = 'true';
