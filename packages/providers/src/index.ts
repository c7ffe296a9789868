export * from './provider.types';
export * from './openai';
export * from './http/upstream-client';
export * from './http/multipart.encoder';
export * from './http/redact';
export * from './routing/channel-order';
export * from './routing/failover';
export * from './registry';
