export * from './object-store';
export * from './local-object-store';
export * from './s3-object-store';
export * from './storage.config';
export * from './object-key';
export * from './signed-url';
export * from './stream-parts';
export * from './served-object';
