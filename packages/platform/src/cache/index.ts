export * from './lru-map';
export * from './read-through-cache';
