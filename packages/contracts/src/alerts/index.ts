export * from './alert-settings.schema';
export * from './alert-payload.schema';
