export * from './openai';
export * from './anthropic';
export * from './gemini';
