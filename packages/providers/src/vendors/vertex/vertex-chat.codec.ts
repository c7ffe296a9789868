// The chat codecs of Vertex's two publishers: Gemini and Claude answer, stream and fail as their own vendors
// do, so only the call (path, version, no key header) and Claude's platform errors differ.
import type { UpstreamChatCodec } from '../../ir/chat-codec.types';
import { anthropicChat } from '../anthropic/anthropic-chat.codec';
import { geminiChat } from '../gemini/gemini-chat.codec';
import { fromVertexClaudeError, toVertexClaudeRequest, vertexClaudeCall } from './vertex-claude.transform';
import { toVertexGeminiRequest, vertexGeminiCall } from './vertex-gemini.transform';

export const vertexGeminiChat: UpstreamChatCodec = { ...geminiChat, toRequest: toVertexGeminiRequest, passThrough: vertexGeminiCall };

export const vertexClaudeChat: UpstreamChatCodec = {
  ...anthropicChat,
  toRequest: toVertexClaudeRequest,
  passThrough: vertexClaudeCall,
  fromError: fromVertexClaudeError,
};
