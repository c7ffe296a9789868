export * from './errors';
export * from './nats';
export * from './accounts';
export * from './admin';
export * from './money';
export * from './routes';
export * from './families/oaic';
export * from './families/room';
