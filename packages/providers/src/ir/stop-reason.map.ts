// Stop reasons in each dialect: stop ↔ end_turn ↔ STOP, length ↔ max_tokens ↔ MAX_TOKENS,
// tool_calls ↔ tool_use ↔ (a function call present), content_filter ↔ refusal ↔ SAFETY.
import type { IrStopReason } from './chat-ir.schema';

export type OaicFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';
export type MsgcStopReasonOut = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';
export type GencFinishReasonOut = 'STOP' | 'MAX_TOKENS' | 'SAFETY';

export function toOaicFinishReason(reason: IrStopReason): OaicFinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
  }
}

export function fromOaicFinishReason(reason: string | null | undefined): IrStopReason {
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'end_turn';
  }
}

export function toMsgcStopReason(reason: IrStopReason): MsgcStopReasonOut {
  return reason === 'content_filter' ? 'refusal' : reason;
}

export function fromMsgcStopReason(reason: string | null | undefined): IrStopReason {
  switch (reason) {
    case 'max_tokens':
    case 'stop_sequence':
    case 'tool_use':
      return reason;
    case 'refusal':
      return 'content_filter';
    default:
      return 'end_turn';
  }
}

export function toGencFinishReason(reason: IrStopReason): GencFinishReasonOut {
  if (reason === 'max_tokens') return 'MAX_TOKENS';
  if (reason === 'content_filter') return 'SAFETY';
  return 'STOP';
}

const GENC_FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT']);

/** Gemini says STOP for a function call too; the call itself tells them apart. */
export function fromGencFinishReason(reason: string | null | undefined, hasToolCall: boolean): IrStopReason {
  if (reason === 'MAX_TOKENS') return 'max_tokens';
  if (reason && GENC_FILTERED.has(reason)) return 'content_filter';
  return hasToolCall ? 'tool_use' : 'end_turn';
}
