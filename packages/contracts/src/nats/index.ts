export * from './subjects';
export * from './envelope';
export * from './reply-note';
export * from './rpc';
export * from './rpcs';
export * from './console-relays';
