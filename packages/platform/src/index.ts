export * from './config';
export * from './nats';
export * from './bootstrap';
