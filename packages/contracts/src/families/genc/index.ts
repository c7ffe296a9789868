export * from './generate-request.schema';
export * from './generate-response.schema';
