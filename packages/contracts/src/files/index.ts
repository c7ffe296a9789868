export * from './file.schema';
export * from './batch.schema';
