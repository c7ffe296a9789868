export * from './queue-prefix';
export * from './queue-factory';
export * from './queue-depths';
