export * from './edge.app';
export * from './config/edge-env';
export * from './handler-modules';
export * from './routing/route-handler.decorator';
export * from './routing/route-request';
