// The cloud-auth step of a Vertex call: the request as the transforms built it, plus the bearer token of the
// provider's token source, applied just before it is sent.
import type { UpstreamAuth } from '../../auth/upstream-auth.types';
import type { ChannelTarget, UpstreamRequest } from '../../provider.types';
import { vertexSettingsOf } from './vertex.settings';
import { vertexAccessToken, type VertexTokenSource } from './vertex-token.source';

export function withBearerToken(request: UpstreamRequest, token: string): UpstreamRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } };
}

export function vertexAuthStep(source: VertexTokenSource): (request: UpstreamRequest) => Promise<UpstreamRequest> {
  return async (request) => withBearerToken(request, await source.token());
}

/** The auth step of a Vertex provider: its service-account key file, or the workload's own identity. */
export function vertexAuth(channel: ChannelTarget): UpstreamAuth {
  const { credentialsFile, tokenUrl } = vertexSettingsOf(channel);
  const providerId = channel.providerId;
  const source = vertexAccessToken(credentialsFile ? { providerId, credentialsFile, tokenUrl } : { providerId, workload: true });
  return { authorize: vertexAuthStep(source) };
}
