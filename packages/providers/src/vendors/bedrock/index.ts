export * from './bedrock-request.transform';
export * from './bedrock-response.transform';
export * from './bedrock-error.transform';
export * from './bedrock-event-stream.reader';
export * from './bedrock-embeddings.transform';
export * from './bedrock-request.signer';
export * from './bedrock-chat.codec';
export * from './bedrock.auth';
