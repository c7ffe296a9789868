import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EnvError, loadEnv } from '../config/env';
import { RedisEnv, redisOptions } from './redis-env';

describe('the Redis settings', () => {
  it('default to one node on this machine, as REDIS_URL always did', () => {
    expect(redisOptions(loadEnv(RedisEnv, {}))).toEqual({ host: '127.0.0.1', port: 6379 });
    expect(redisOptions('redis://cache.internal:6380/2')).toEqual({ host: 'cache.internal', port: 6380, db: 2 });
  });

  it('take credentials and TLS from the URL, the variables winning', () => {
    expect(redisOptions('rediss://app:s%40cret@redis.example:6379')).toEqual({
      host: 'redis.example',
      port: 6379,
      username: 'app',
      password: 's@cret',
      tls: {},
    });
    const env = loadEnv(RedisEnv, { REDIS_URL: 'redis://old:pw@redis.example:6379', REDIS_USERNAME: 'gateway', REDIS_PASSWORD: 'new', REDIS_TLS: 'true' });
    expect(redisOptions(env)).toEqual({ host: 'redis.example', port: 6379, username: 'gateway', password: 'new', tls: {} });
  });

  it('name the primary through the Sentinels, with ioredis following a failover', () => {
    const env = loadEnv(RedisEnv, {
      REDIS_SENTINELS: 'sentinel-0:26379, sentinel-1:26380,[::1]:26381',
      REDIS_SENTINEL_NAME: 'gateway',
      REDIS_PASSWORD: 'pw',
      REDIS_SENTINEL_PASSWORD: 'spw',
    });
    expect(redisOptions(env)).toEqual({
      sentinels: [
        { host: 'sentinel-0', port: 26379 },
        { host: 'sentinel-1', port: 26380 },
        { host: '::1', port: 26381 },
      ],
      name: 'gateway',
      password: 'pw',
      sentinelPassword: 'spw',
      failoverDetector: true,
    });
  });

  it('use the CA file for the primary and the Sentinels alike', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'redis-ca-'));
    try {
      const ca = path.join(dir, 'ca.pem');
      writeFileSync(ca, 'PEM');
      const env = loadEnv(RedisEnv, { REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_NAME: 'm', REDIS_TLS: 'true', REDIS_TLS_CA_FILE: ca });
      const options = redisOptions(env);
      expect(options.tls?.ca?.toString()).toBe('PEM');
      expect(options.sentinelTLS).toBe(options.tls);
      expect(options.enableTLSForSentinelMode).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stop start-up naming the variable when they do not fit together', () => {
    expect(() => loadEnv(RedisEnv, { REDIS_SENTINELS: 'sentinel-0' })).toThrow('REDIS_SENTINELS');
    expect(() => redisOptions(loadEnv(RedisEnv, { REDIS_SENTINELS: 'a:26379' }))).toThrow(
      new EnvError('Invalid environment variable REDIS_SENTINEL_NAME: required with REDIS_SENTINELS'),
    );
    expect(() => redisOptions(loadEnv(RedisEnv, { REDIS_SENTINEL_NAME: 'm' }))).toThrow('REDIS_SENTINELS');
    expect(() => redisOptions(loadEnv(RedisEnv, { REDIS_TLS: 'true', REDIS_TLS_CA_FILE: '/nonexistent/ca.pem' }))).toThrow('REDIS_TLS_CA_FILE: ENOENT');
    expect(() => redisOptions('http://redis:6379')).toThrow('REDIS_URL');
  });
});
