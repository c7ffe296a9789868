// An OpenAI-protocol call made an Azure OpenAI one: the deployment (the channel's upstream model) or the
// v1 path, `api-version`, and the `api-key` header in place of a bearer key. Bodies are OpenAI's as they are.
import type { ChannelTarget, OaicOperation, UpstreamRequest } from '../../provider.types';
import { OPENAI_PATHS } from '../openai/openai-operations';
import { toUpstream, type ToUpstreamOptions } from '../openai/openai.adapter';
import { azureSettingsOf } from './azure-openai.settings';

/** Operations Azure serves beside the deployments, not under one: the model names the deployment in the body. */
const OUTSIDE_DEPLOYMENTS: ReadonlySet<OaicOperation> = new Set(['responses']);

export function azureUrl(op: OaicOperation, channel: ChannelTarget): string {
  const settings = azureSettingsOf(channel);
  const base = channel.baseUrl.replace(/\/+$/, '');
  const path = OPENAI_PATHS[op];
  if (settings.paths === 'v1') return `${base}/openai/v1${path}`;
  const version = `?api-version=${encodeURIComponent(settings.apiVersion ?? '')}`;
  if (OUTSIDE_DEPLOYMENTS.has(op)) return `${base}/openai${path}${version}`;
  return `${base}/openai/deployments/${encodeURIComponent(channel.upstreamModel)}${path}${version}`;
}

/** Rewrites an OpenAI-protocol call for Azure; an Entra ID token, when configured, is added by the auth step. */
export function asAzureRequest(request: UpstreamRequest, op: OaicOperation, channel: ChannelTarget): UpstreamRequest {
  const { authorization: _bearer, ...headers } = request.headers;
  if (channel.apiKey) headers['api-key'] = channel.apiKey;
  return { ...request, url: azureUrl(op, channel), headers };
}

export function toAzureUpstream(op: OaicOperation, body: Record<string, unknown>, channel: ChannelTarget, options: ToUpstreamOptions): UpstreamRequest {
  return asAzureRequest(toUpstream(op, body, channel, options), op, channel);
}
