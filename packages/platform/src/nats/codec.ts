import { ErrorBody, GatewayError, RpcReply } from '@gateway/contracts';
import { databaseUnavailable, isDatabaseFault } from '../faults/database-fault';
import { isRedisFault, redisUnavailable } from '../redis/redis-fault';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function decodeJson(data: Uint8Array): unknown {
  return data.length === 0 ? undefined : JSON.parse(decoder.decode(data));
}

export function encodeText(value: string): Uint8Array {
  return encoder.encode(value);
}

export function decodeText(data: Uint8Array): string {
  return decoder.decode(data);
}

/** Any thrown value as the error body that travels back to the caller. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof GatewayError) return error.toBody();
  if (isRedisFault(error)) return redisUnavailable().toBody();
  if (isDatabaseFault(error)) return databaseUnavailable().toBody();
  return { code: 'internal', message: 'Internal error' };
}

export function encodeReply(reply: RpcReply): Uint8Array {
  return encodeJson(reply);
}

/** How `encodeReply` begins a success: `{"ok":true,"data":`, then the data's JSON, then `}`. */
const OK_HEAD = encoder.encode('{"ok":true,"data":');
const CLOSE_BRACE = 0x7d;

/**
 * A success reply's data as the JSON bytes `encodeReply` wrote, sliced out of the envelope without
 * decoding it; null for any other reply (an error, or an envelope written otherwise), to be decoded.
 */
export function replyDataBytes(envelope: Uint8Array): Uint8Array | null {
  if (envelope.length <= OK_HEAD.length || envelope[envelope.length - 1] !== CLOSE_BRACE) return null;
  for (let i = 0; i < OK_HEAD.length; i++) if (envelope[i] !== OK_HEAD[i]) return null;
  return envelope.subarray(OK_HEAD.length, envelope.length - 1);
}
