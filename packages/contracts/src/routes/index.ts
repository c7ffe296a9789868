export * from './route.types';
export * from './route-table';
export * from './route-index';
export * from './openapi';
export * from './reply-schemas';
export * from './route-path';
