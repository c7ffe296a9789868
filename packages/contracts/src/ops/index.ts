export * from './process-stats';
