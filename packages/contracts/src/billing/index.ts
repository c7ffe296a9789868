export * from './limits.schema';
export * from './billing.schema';
