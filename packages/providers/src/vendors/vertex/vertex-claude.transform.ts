// IR → Claude on Vertex: the Messages body as the anthropic vendor builds it, without `model` (Vertex takes
// it from the path) and with Vertex's `anthropic_version`, sent to rawPredict or streamRawPredict. Vertex
// answers in Anthropic's shapes, except the platform's own refusals (auth, quota), which are Google's.
import { type GatewayError, MsgcErrorBody } from '@gateway/contracts';
import type { ChatIrRequest } from '../../ir/chat-ir.schema';
import type { UpstreamErrorOptions } from '../../ir/upstream-error';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { STRUCTURED_OUTPUTS_BETA, toAnthropicBody } from '../anthropic/anthropic-request.transform';
import { fromAnthropicError } from '../anthropic/anthropic-error.transform';
import { fromGeminiError } from '../gemini/gemini-error.transform';
import { vertexClaudeMethodUrl } from './vertex-urls';
import { vertexLocationOf } from './vertex.settings';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export function toVertexClaudeBody(ir: ChatIrRequest): Record<string, unknown> {
  const { model: _model, ...body } = toAnthropicBody(ir);
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...body };
}

/** The call around a Messages body, translated or as a msgc client sent it: its `model` and version are Vertex's. */
export function vertexClaudeCall(body: Record<string, unknown>, channel: ChannelTarget, stream: boolean): UpstreamRequest {
  const { model: _model, anthropic_version: _version, ...rest } = body;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (stream) headers.accept = 'text/event-stream';
  return {
    method: 'POST',
    url: vertexClaudeMethodUrl(vertexLocationOf(channel), channel.upstreamModel, stream),
    headers,
    body: JSON.stringify({ anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest }),
    stream,
  };
}

export function toVertexClaudeRequest(ir: ChatIrRequest, channel: ChannelTarget): UpstreamRequest {
  const body = toVertexClaudeBody(ir);
  const call = vertexClaudeCall(body, channel, ir.stream);
  if (body.output_format) call.headers['anthropic-beta'] = STRUCTURED_OUTPUTS_BETA;
  return call;
}

function isAnthropicError(bodyText: string): boolean {
  try {
    return MsgcErrorBody.safeParse(JSON.parse(bodyText)).success;
  } catch {
    return false;
  }
}

export function fromVertexClaudeError(status: number, bodyText: string, options: UpstreamErrorOptions = {}): GatewayError {
  return isAnthropicError(bodyText) ? fromAnthropicError(status, bodyText, options) : fromGeminiError(status, bodyText, options);
}
