import { isDatabaseFault } from './database-fault';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

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
    ])
      expect(isDatabaseFault(error)).toBe(true);
  });

  it('leaves a statement its own errors', () => {
    for (const error of [withCode('P2002', 'Unique constraint failed'), withCode('23505'), withCode('22P02'), new Error('boom'), 'text'])
      expect(isDatabaseFault(error)).toBe(false);
  });
});
