export * from './openai';
export * from './anthropic';
export * from './gemini';
export * from './dashscope';
export * from './kling';
export * from './music';
export * from './vertex';
export * from './bedrock';
