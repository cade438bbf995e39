import { isDatabaseUnavailable, isReadOnlyDatabase } from './database-failure';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe(isDatabaseUnavailable.name, () => {
  it.each([
    ['SQLite busy', withCode('SQLITE_BUSY')],
    ['SQLite read-only', withCode('SQLITE_READONLY')],
    ['SQLite disk full', withCode('SQLITE_FULL')],
    ['PostgreSQL connection failure (class 08)', { name: 'QueryFailedError', message: 'x', driverError: { code: '08006' } }],
    ['PostgreSQL shutting down', { name: 'QueryFailedError', message: 'x', driverError: { code: '57P01' } }],
    ['PostgreSQL statement timeout', { name: 'QueryFailedError', message: 'x', driverError: { code: '57014' } }],
    ['too many connections', { name: 'QueryFailedError', message: 'x', driverError: { code: '53300' } }],
    ['connection refused', withCode('ECONNREFUSED')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['a client read timeout', new Error('Query read timeout')],
    ['a closed data source', Object.assign(new Error('x'), { name: 'CannotExecuteNotConnectedError' })],
    ['an uninitialised driver', new Error('Driver not Connected')],
    ['a read-only transaction (a demoted primary)', { name: 'QueryFailedError', message: 'cannot execute INSERT in a read-only transaction', code: '25006', driverError: { code: '25006' } }],
    ['PostgreSQL refusing connections while starting', { name: 'QueryFailedError', message: 'x', driverError: { code: '57P03' } }],
    ['a query runner released by a failed transaction', Object.assign(new Error('x'), { name: 'QueryRunnerProviderAlreadyReleasedError' })],
    ['a data source never set', Object.assign(new Error('x'), { name: 'ConnectionIsNotSetError' })],
    ['a query runner already released', Object.assign(new Error('x'), { name: 'QueryRunnerAlreadyReleasedError' })],
    ['a dropped connection, in the driver error only', { name: 'QueryFailedError', message: 'x', driverError: { message: 'Connection terminated unexpectedly' } }],
  ])('treats %s as unavailable', (_label, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  it.each([
    ['a constraint violation', { name: 'QueryFailedError', message: 'x', driverError: { code: '23505' } }],
    ['a syntax error', { name: 'QueryFailedError', message: 'x', driverError: { code: '42601' } }],
    // SQLSTATE classes are the first two characters: 22008 (a date out of range) is a failure of ours, not class 08.
    ['a date out of range', { name: 'QueryFailedError', message: 'x', driverError: { code: '22008' } }],
    ['SQLite corruption', withCode('SQLITE_CORRUPT')],
    ['a plain bug', new TypeError('x is not a function')],
    ['a string', 'boom'],
    ['null', null],
  ])('treats %s as a failure of ours', (_label, error) => expect(isDatabaseUnavailable(error)).toBe(false));
});

describe(isReadOnlyDatabase.name, () => {
  it('knows SQLSTATE 25006 on the error or its driver error', () => {
    expect(isReadOnlyDatabase(withCode('25006'))).toBe(true);
    expect(isReadOnlyDatabase({ name: 'QueryFailedError', driverError: { code: '25006' } })).toBe(true);
  });

  it.each([withCode('57P01'), withCode('SQLITE_READONLY'), null, 'boom'])('is false for %j', (error) => expect(isReadOnlyDatabase(error)).toBe(false));
});
