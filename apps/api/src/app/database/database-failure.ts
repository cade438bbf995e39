import { ApiException } from '../errors/api-exception';

// Errors that mean "the database cannot serve right now", as opposed to a bug: the request gets a 503 and the
// client may retry. SQLite: locked, read-only, full or unreadable file. PostgreSQL: SQLSTATE class 08
// (connection exception), shutdown in progress, too many connections, statement timeout, a read-only transaction (a
// primary demoted under its open connections, or a standby); network errors; TypeORM's errors for a connection that
// is gone (released by a failed transaction, or never set).
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_MISUSE']);
const POSTGRES_CODES = /^(08|57P0[123]|53300|57014|25006)/;
const READ_ONLY_TRANSACTION = '25006';
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const MESSAGES = /Driver not Connected|Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Cannot use a pool after calling end/i;
const TYPEORM_NOT_CONNECTED = new Set(['CannotExecuteNotConnectedError', 'ConnectionIsNotSetError', 'QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

export function isDatabaseUnavailable(error: unknown): boolean {
  // Duck-typed rather than instanceof: driver and socket errors may come from another realm (Jest's VM, for one).
  // Stryker disable next-line ConditionalExpression: a primitive other than null has no fields, which says false too.
  if (typeof error !== 'object' || error === null) return false;
  const { name, message, code, errno, driverError } = error as Record<string, unknown>;
  const driver = (typeof driverError === 'object' && driverError !== null ? driverError : {}) as Record<string, unknown>;
  // Stryker disable next-line StringLiteral: what stands for a missing code matches none of the codes.
  const codes = [code, errno, driver.code, driver.errno].map((value) => String(value ?? ''));
  return (
    TYPEORM_NOT_CONNECTED.has(String(name)) ||
    codes.some((value) => SQLITE_CODES.has(value) || NETWORK_CODES.has(value) || POSTGRES_CODES.test(value)) ||
    // Stryker disable next-line StringLiteral: what stands for a missing message matches none of the messages.
    MESSAGES.test(String(message ?? '')) ||
    // Stryker disable next-line StringLiteral: what stands for a missing message matches none of the messages.
    MESSAGES.test(String(driver.message ?? ''))
  );
}

/** A PostgreSQL server that refuses writes: a standby, or a primary demoted while this connection was open. */
export function isReadOnlyDatabase(error: unknown): boolean {
  // Stryker disable next-line ConditionalExpression: a primitive other than null has no code, which says false too.
  if (typeof error !== 'object' || error === null) return false;
  const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
  return code === READ_ONLY_TRANSACTION || driverError?.code === READ_ONLY_TRANSACTION;
}

/** The 503 of a database that answers but takes no writes now: a failover may be under way. */
export const databaseReadOnly = () =>
  new ApiException('service_unavailable', 'The database accepts no writes right now (a failover may be under way); retry shortly.', {
    'retry-after': '1',
  });

export const serviceUnavailable = () =>
  new ApiException('service_unavailable', 'The database is not reachable right now; retry shortly.', { 'retry-after': '1' });
