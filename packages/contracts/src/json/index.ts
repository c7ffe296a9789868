export * from './json-text';
