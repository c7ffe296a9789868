import { isDatabaseFault } from './database-fault';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** As the pg driver adapter throws it from a model query. */
const fromAdapter = (cause: object) => Object.assign(new Error('x'), { name: 'DriverAdapterError', cause });
/** As Prisma wraps it for a raw query. */
const wrappedAdapter = (cause: object) =>
  Object.assign(new Error('Raw query failed.'), { code: 'P2010', meta: { driverAdapterError: { name: 'DriverAdapterError', cause } } });

describe('isDatabaseFault', () => {
  it('knows a database that cannot be reached or waited for', () => {
    const init = Object.assign(new Error("Can't reach database server at `127.0.0.1:5432`"), { name: 'PrismaClientInitializationError' });
    for (const error of [
      init,
      withCode('P2028', 'Transaction API error: Unable to start a transaction in the given time.'),
      withCode('P2024'),
      withCode('P1017'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('08006'),
      withCode('ECONNREFUSED'),
      new Error('Connection terminated unexpectedly'),
      fromAdapter({ kind: 'postgres', originalCode: '25006', originalMessage: 'cannot execute INSERT in a read-only transaction' }),
      wrappedAdapter({ kind: 'postgres', originalCode: '57P01' }),
      fromAdapter({ kind: 'ConnectionClosed' }),
      fromAdapter({ kind: 'DatabaseNotReachable', host: '10.0.0.9', port: 5432 }),
      fromAdapter({ kind: 'TooManyConnections', originalCode: '53300' }),
    ])
      expect(isDatabaseFault(error)).toBe(true);
  });

  it('leaves a statement its own errors', () => {
    for (const error of [
      withCode('P2002', 'Unique constraint failed'),
      withCode('23505'),
      withCode('22P02'),
      fromAdapter({ kind: 'UniqueConstraintViolation', originalCode: '23505' }),
      wrappedAdapter({ kind: 'postgres', originalCode: '42601' }),
      new Error('boom'),
      'text',
    ])
      expect(isDatabaseFault(error)).toBe(false);
  });
});
