export * from './sse-frame';
export * from './oaic';
export * from './msgc';
export * from './genc';
