// Which vendor speaks each channel protocol, and which codec writes each client family: a (family ×
// protocol) pair is two table reads rather than a switch at every call. A new protocol is a folder under
// vendors/ and one line in UPSTREAM_CHAT.
import type { ProviderProtocol } from '@gateway/contracts';
import type { FamilyChatCodec, UpstreamChatCodec } from '../ir/chat-codec.types';
import type { IrFamily } from '../ir/chat-ir.schema';
import { gencChat } from '../families/genc/genc-chat.codec';
import { msgcChat } from '../families/msgc/msgc-chat.codec';
import { oaicChat } from '../families/oaic/oaic-chat.codec';
import { azureOpenaiChat } from '../vendors/azure-openai/azure-openai-chat.codec';
import { anthropicChat } from '../vendors/anthropic/anthropic-chat.codec';
import { geminiChat } from '../vendors/gemini/gemini-chat.codec';
import { openaiChat } from '../vendors/openai/openai-chat.codec';

export type ChatProtocol = Extract<ProviderProtocol, 'openai' | 'anthropic' | 'gemini' | 'azure-openai'>;

export const UPSTREAM_CHAT: Record<ChatProtocol, UpstreamChatCodec> = {
  openai: openaiChat,
  anthropic: anthropicChat,
  gemini: geminiChat,
  'azure-openai': azureOpenaiChat,
};

export const FAMILY_CHAT: Record<IrFamily, FamilyChatCodec> = { oaic: oaicChat, msgc: msgcChat, genc: gencChat };

function nativeFamilies(): Record<ChatProtocol, IrFamily> {
  const byProtocol: Partial<Record<ChatProtocol, IrFamily>> = {};
  for (const [protocol, codec] of Object.entries(UPSTREAM_CHAT) as [ChatProtocol, UpstreamChatCodec][]) byProtocol[protocol] = codec.nativeFamily;
  return byProtocol as Record<ChatProtocol, IrFamily>;
}

/** The family whose wire format a protocol already speaks: that pair is passed through untranslated. */
export const NATIVE_FAMILY: Readonly<Record<ChatProtocol, IrFamily>> = nativeFamilies();
