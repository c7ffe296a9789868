export * from './messages-request.schema';
export * from './messages-response.schema';
