import { ErrorBody, GatewayError, RpcReply } from '@gateway/contracts';

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
  return { code: 'internal', message: 'Internal error' };
}

export function encodeReply(reply: RpcReply): Uint8Array {
  return encodeJson(reply);
}
