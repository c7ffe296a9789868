// The cloud-auth step of a Vertex call: the request as the transforms built it, plus the bearer token of the
// provider's token source, applied just before it is sent.
import type { UpstreamRequest } from '../../provider.types';
import type { VertexTokenSource } from './vertex-token.source';

export function withBearerToken(request: UpstreamRequest, token: string): UpstreamRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
}

export function vertexAuthStep(source: VertexTokenSource): (request: UpstreamRequest) => Promise<UpstreamRequest> {
  return async (request) => withBearerToken(request, await source.token());
}
