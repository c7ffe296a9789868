export * from './openai.adapter';
export * from './openai-error.map';
export * from './openai-operations';
export * from './openai-response.schema';
export * from './openai-stream.parser';
export * from './openai-chat-request.transform';
export * from './openai-chat-response.transform';
export * from './openai-chat.codec';
