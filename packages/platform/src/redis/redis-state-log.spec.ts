import { EventEmitter } from 'node:events';
import type Redis from 'ioredis';
import { watchRedis } from './create-redis';
import { RedisStateLog } from './redis-state-log';

const refused = new Error('connect ECONNREFUSED 127.0.0.1:6390');

describe('the Redis state log', () => {
  it('writes one line when the first client is lost and one when the last is back, whatever the retries', () => {
    const lines: string[] = [];
    const state = new RedisStateLog((line) => lines.push(line));
    const [wallet, limits] = [{}, {}];
    state.back(wallet);
    for (let retry = 0; retry < 50; retry++) {
      state.lost(wallet, 'wallet', refused);
      state.lost(limits, 'limits', refused);
    }
    expect(state.isDown).toBe(true);
    state.back(wallet);
    expect(lines).toEqual(['redis lost (wallet): connect ECONNREFUSED 127.0.0.1:6390']);
    state.back(limits);
    state.back(limits);
    expect(lines).toEqual(['redis lost (wallet): connect ECONNREFUSED 127.0.0.1:6390', 'redis back']);
    expect(state.isDown).toBe(false);
  });

  it('listens to each client, so its retries raise no unhandled error event', () => {
    const lines: string[] = [];
    const state = new RedisStateLog((line) => lines.push(line));
    const clients = [0, 1, 2].map(() => watchRedis(new EventEmitter() as unknown as Redis, 'limits', state));
    for (let retry = 0; retry < 10; retry++) for (const client of clients) client.emit('error', refused);
    for (const client of clients) client.emit('ready');
    expect(lines).toEqual(['redis lost (limits): connect ECONNREFUSED 127.0.0.1:6390', 'redis back']);
  });
});
