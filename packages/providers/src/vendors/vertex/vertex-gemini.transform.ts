// IR → Gemini on Vertex: the Gemini body as the gemini vendor builds it, sent to the publisher model under the
// channel's location (its host and settings, see vertexLocationOf). The bearer token is added by the auth step.
import type { ChatIrRequest } from '../../ir/chat-ir.schema';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { toGeminiBody } from '../gemini/gemini-request.transform';
import { vertexGeminiMethodUrl } from './vertex-urls';
import { vertexLocationOf } from './vertex.settings';

export function vertexGeminiCall(body: Record<string, unknown>, channel: ChannelTarget, stream: boolean): UpstreamRequest {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (stream) headers.accept = 'text/event-stream';
  return { method: 'POST', url: vertexGeminiMethodUrl(vertexLocationOf(channel), channel.upstreamModel, stream), headers, body: JSON.stringify(body), stream };
}

export function toVertexGeminiRequest(ir: ChatIrRequest, channel: ChannelTarget): UpstreamRequest {
  return vertexGeminiCall(toGeminiBody(ir), channel, ir.stream);
}
