export * from './media-input.schema';
export * from './video-create.schema';
export * from './dsc-request.schema';
export * from './native-request.schema';
export * from './native-rules';
export * from './media-call.schema';
export * from './media-answer.schema';
export * from './media-callback.schema';
