export * from './config';
export * from './nats';
export * from './bootstrap';
export * from './cache';
export * from './batch/isolate-failures';
export * from './batch/batch-source';
export * from './batch/batch-consumer';
export * from './queue';
