export * from './config.schema';
export * from './admin.schema';
