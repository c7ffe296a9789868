export * from './anthropic-request.transform';
export * from './anthropic-response.transform';
export * from './anthropic-error.transform';
export * from './anthropic-chat.codec';
