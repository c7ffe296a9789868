export * from './codec';
export * from './connect';
export * from './nats-bus';
export * from './nats.module';
export * from './nats-rpc.transport';
export * from './rpc-context';
export * from './namespace-cleanup';
