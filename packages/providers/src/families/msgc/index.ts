export * from './msgc-request.decoder';
export * from './msgc-response.encoder';
export * from './msgc-stream.encoder';
export * from './msgc-chat.codec';
