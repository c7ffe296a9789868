export * from './genc-request.decoder';
export * from './genc-response.encoder';
export * from './genc-stream.encoder';
export * from './genc-chat.codec';
