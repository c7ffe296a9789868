export * from './lru-map';
export * from './read-through-cache';
export * from './catalog-cache';
