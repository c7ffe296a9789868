export * from './response-cache.schema';
export * from './cache-admin.schema';
