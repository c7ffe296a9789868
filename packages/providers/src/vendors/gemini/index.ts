export * from './gemini-request.transform';
export * from './gemini-response.transform';
export * from './gemini-error.transform';
export * from './gemini-chat.codec';
