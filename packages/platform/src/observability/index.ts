export * from './logger';
export * from './metrics';
export * from './tracing';
export * from './reply-note';
export * from './ops-server';
export * from './readiness-checks';
export * from './channel-counters';
