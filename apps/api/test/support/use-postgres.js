// Read by test-database.ts when it loads: this Jest project runs the HTTP suite on PostgreSQL.
process.env.PETSTORE_TEST_DATABASE = 'postgres';
