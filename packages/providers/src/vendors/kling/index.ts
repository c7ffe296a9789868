export * from './kling-jwt';
export * from './kling-media.transform';
