export * from './azure-openai.settings';
export * from './azure-openai.request';
export * from './azure-openai.auth';
export * from './azure-openai-error.map';
export * from './azure-openai-chat.codec';
