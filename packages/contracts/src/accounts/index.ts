export * from './key.schema';
export * from './catalog.schema';
