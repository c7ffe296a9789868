export * from './access-token.cache';
export * from './upstream-auth.types';
export * from './upstream-auth.registry';
export * from './send-authorized';
