export * from './config.schema';
export * from './provider-settings.schema';
export * from './admin.schema';
export * from './lookup.schema';
export * from './admin-routes';
export * from './admin-openapi';
