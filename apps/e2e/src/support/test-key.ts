/** A key the services under test accept; it must never show up in a response or a log line. */
export const TEST_KEY = 'pk_e2e_canary_7c41a0d9e2b54f36';
