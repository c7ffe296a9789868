export * from './response-cache.schema';
