export * from './service.bootstrap';
export * from './rethrow.filter';
