export * from './openai';
export * from './azure-openai';
export * from './openai-compatible';
export * from './anthropic';
export * from './gemini';
export * from './dashscope';
export * from './kling';
export * from './music';
