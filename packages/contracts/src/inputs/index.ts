export * from './input-text.schema';
