export * from './queue-prefix';
export * from './queue-factory';
