export * from './subjects';
export * from './envelope';
