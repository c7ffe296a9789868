// Which vendor speaks each channel protocol, and which codec writes each client family: a (family ×
// protocol) pair is two table reads rather than a switch at every call. A new protocol is a folder under
// vendors/ and one line in UPSTREAM_CHAT (Vertex, one protocol, is two codecs: one per model publisher).
import type { ProviderProtocol } from '@gateway/contracts';
import type { FamilyChatCodec, UpstreamChatCodec } from '../ir/chat-codec.types';
import type { IrFamily } from '../ir/chat-ir.schema';
import type { ChannelTarget } from '../provider.types';
import { gencChat } from '../families/genc/genc-chat.codec';
import { msgcChat } from '../families/msgc/msgc-chat.codec';
import { oaicChat } from '../families/oaic/oaic-chat.codec';
import { azureOpenaiChat } from '../vendors/azure-openai/azure-openai-chat.codec';
import { anthropicChat } from '../vendors/anthropic/anthropic-chat.codec';
import { bedrockChat } from '../vendors/bedrock/bedrock-chat.codec';
import { vertexClaudeChat, vertexGeminiChat } from '../vendors/vertex/vertex-chat.codec';
import { vertexPublisherOf } from '../vendors/vertex/vertex.settings';
import { geminiChat } from '../vendors/gemini/gemini-chat.codec';
import { openaiChat } from '../vendors/openai/openai-chat.codec';

/** A chat codec's key: a channel's protocol, and for Vertex the publisher of its model. */
export type ChatUpstream = Extract<ProviderProtocol, 'openai' | 'anthropic' | 'gemini' | 'azure-openai' | 'bedrock'> | 'vertex-gemini' | 'vertex-claude';

export const UPSTREAM_CHAT: Record<ChatUpstream, UpstreamChatCodec> = {
  openai: openaiChat,
  anthropic: anthropicChat,
  gemini: geminiChat,
  'azure-openai': azureOpenaiChat,
  bedrock: bedrockChat,
  'vertex-gemini': vertexGeminiChat,
  'vertex-claude': vertexClaudeChat,
};

export const FAMILY_CHAT: Record<IrFamily, FamilyChatCodec> = { oaic: oaicChat, msgc: msgcChat, genc: gencChat };

/** The codec that serves chat on a channel; null for a protocol that serves no chat (media, music). */
export function chatUpstreamOf(channel: Pick<ChannelTarget, 'protocol' | 'upstreamModel'>): ChatUpstream | null {
  if (channel.protocol === 'vertex') return vertexPublisherOf(channel.upstreamModel) === 'anthropic' ? 'vertex-claude' : 'vertex-gemini';
  return channel.protocol in UPSTREAM_CHAT ? (channel.protocol as ChatUpstream) : null;
}

function familiesBy(passingThrough: boolean): Partial<Record<ChatUpstream, IrFamily>> {
  const byUpstream: Partial<Record<ChatUpstream, IrFamily>> = {};
  for (const [upstream, codec] of Object.entries(UPSTREAM_CHAT) as [ChatUpstream, UpstreamChatCodec][]) {
    if (!passingThrough || codec.passThrough) byUpstream[upstream] = codec.nativeFamily;
  }
  return byUpstream;
}

/** The family whose wire format an upstream already speaks: that pair is passed through untranslated. */
export const NATIVE_FAMILY: Readonly<Partial<Record<ChatUpstream, IrFamily>>> = familiesBy(true);

/** The family whose field names an upstream's refusals use, so a crossed error can name the client's. */
export const FIELD_FAMILY: Readonly<Record<ChatUpstream, IrFamily>> = familiesBy(false) as Record<ChatUpstream, IrFamily>;
