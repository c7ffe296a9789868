export * from './key.schema';
export * from './catalog.schema';
export * from './channel.schema';
export * from './project.schema';
export * from './key-models';
export * from './key-routes';
export * from './model-rules';
