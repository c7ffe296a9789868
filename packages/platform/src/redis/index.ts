export * from './create-redis';
export * from './redis-env';
export * from './redis-fault';
export * from './redis-state-log';
