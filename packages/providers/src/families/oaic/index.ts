export * from './oaic-request.decoder';
export * from './oaic-response.encoder';
export * from './oaic-stream.encoder';
export * from './oaic-chat.codec';
export * from './oaic-completions.bridge';
export * from './oaic-responses.bridge';
