export * from './free-port';
export * from './nats-cluster';
export * from './redis-sentinel-cluster';
export * from './wait';
