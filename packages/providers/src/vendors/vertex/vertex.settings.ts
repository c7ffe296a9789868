// A Vertex channel's settings and where its calls go: the base URL is the regional host (or the sandbox),
// the project and location come from the settings, and a model's publisher from its id.
import type { VertexSettings } from '@gateway/contracts';
import type { ChannelTarget } from '../../provider.types';
import { providerSettingsOf } from '../provider-settings';
import { vertexLocationUrl, type VertexPublisher } from './vertex-urls';

export function vertexSettingsOf(channel: ChannelTarget): VertexSettings {
  return providerSettingsOf(channel, 'vertex');
}

/** `{baseUrl}/v1/projects/{project}/locations/{location}`: what every method of a Vertex channel is under. */
export function vertexLocationOf(channel: ChannelTarget): string {
  return vertexLocationUrl(vertexSettingsOf(channel), channel.baseUrl);
}

/** Claude models are Anthropic's on Vertex (`claude-sonnet-4@20250514`); every other model is Google's. */
export function vertexPublisherOf(upstreamModel: string): VertexPublisher {
  return upstreamModel.startsWith('claude') ? 'anthropic' : 'google';
}
