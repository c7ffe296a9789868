export * from './music-request.schema';
export * from './music-routes';
export * from './music-text-limits';
export * from './music-task.schema';
