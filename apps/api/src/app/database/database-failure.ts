import { ApiException } from '../errors/api.exception';

// Errors that mean "the database cannot serve right now", as opposed to a bug: the request gets a 503 and the
// client may retry. SQLite: locked, read-only, full or unreadable file. PostgreSQL: SQLSTATE class 08
// (connection exception), shutdown in progress, too many connections, statement timeout; network errors.
const SQLITE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_MISUSE']);
const POSTGRES_CODES = /^(08|57P0[123]|53300|57014)/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const MESSAGES = /Driver not Connected|Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|Cannot use a pool after calling end/i;
const TYPEORM_NOT_CONNECTED = new Set(['CannotExecuteNotConnectedError', 'ConnectionIsNotSetError']);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const driverError = (error as { driverError?: unknown }).driverError;
  const code = String((driverError as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code ?? '');
  const errno = String((driverError as { errno?: unknown } | undefined)?.errno ?? '');
  return (
    TYPEORM_NOT_CONNECTED.has(error.name) ||
    SQLITE_CODES.has(code) ||
    POSTGRES_CODES.test(code) ||
    NETWORK_CODES.has(code) ||
    NETWORK_CODES.has(errno) ||
    MESSAGES.test(error.message) ||
    (driverError instanceof Error && MESSAGES.test(driverError.message))
  );
}

export const serviceUnavailable = () =>
  new ApiException('service_unavailable', 'The database is not reachable right now; retry shortly.', { 'retry-after': '1' });
