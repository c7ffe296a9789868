export * from './models.schema';
