export * from './config';
export * from './nats';
export * from './bootstrap';
export * from './batch/isolate-failures';
