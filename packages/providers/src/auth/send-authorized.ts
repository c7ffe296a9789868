// The one way a sender calls an upstream for a channel: the protocol's auth step, then the HTTP call.
import { sendUpstream, type SendOptions } from '../http/upstream-client';
import type { ChannelTarget, UpstreamRequest, UpstreamResponse } from '../provider.types';
import { authorizeUpstream } from './upstream-auth.registry';

export function sendAuthorized(request: UpstreamRequest, channel: ChannelTarget, options: SendOptions = {}): Promise<UpstreamResponse> {
  const authorized = authorizeUpstream(request, channel);
  return authorized instanceof Promise ? authorized.then((ready) => sendUpstream(ready, options)) : sendUpstream(authorized, options);
}
