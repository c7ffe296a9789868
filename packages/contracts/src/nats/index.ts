export * from './subjects';
export * from './envelope';
export * from './reply-note';
