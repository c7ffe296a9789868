import { GatewayError } from '@gateway/contracts';
import { toErrorBody } from '../nats/codec';
import { isRedisFault, redisUnavailable } from './redis-fault';

function named(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}

describe('a Redis fault', () => {
  it.each([
    named('MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 2). Refer to "maxRetriesPerRequest" option for details.'),
    new Error('Connection is closed.'),
    new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    new Error('connect ECONNREFUSED 127.0.0.1:6379'),
    named('ReplyError', 'LOADING Redis is loading the dataset in memory'),
    named('ReplyError', 'TRYAGAIN the wallet is being rebuilt after a change of Redis server'),
  ])('is recognised: %s', (error) => {
    expect(isRedisFault(error)).toBe(true);
  });

  it.each([
    new Error('ERR wrong number of arguments'),
    named('ReplyError', 'NOSCRIPT No matching script'),
    new GatewayError('internal', 'x'),
    'ECONNREFUSED',
    null,
  ])('is not mistaken for another error: %s', (error) => {
    expect(isRedisFault(error)).toBe(false);
  });

  it('travels as 503 unavailable with Retry-After, where anything else unexpected is internal', () => {
    expect(redisUnavailable().toBody()).toMatchObject({ code: 'unavailable', retryAfterSeconds: 1 });
    expect(toErrorBody(named('MaxRetriesPerRequestError', 'Reached the max retries per request limit (which is 2).'))).toMatchObject({
      code: 'unavailable',
      retryAfterSeconds: 1,
    });
    expect(toErrorBody(new Error('boom'))).toEqual({ code: 'internal', message: 'Internal error' });
  });
});
