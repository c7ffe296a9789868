export * from './dashscope-media.transform';
