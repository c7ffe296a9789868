export * from './vertex-urls';
export * from './vertex-gemini.transform';
export * from './vertex-claude.transform';
export * from './vertex-chat.codec';
export * from './vertex-embeddings.transform';
export * from './vertex-token.source';
export * from './vertex-auth.step';
export * from './vertex.settings';
