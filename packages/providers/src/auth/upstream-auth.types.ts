// The seam every cloud vendor's auth plugs into: a step that makes a described call acceptable to its
// upstream (a header added, the final bytes signed). It may answer at once, so protocols without auth, and
// calls with a token already cached, cost no await.
import type { ChannelTarget, UpstreamRequest } from '../provider.types';

export interface UpstreamAuth {
  /** The call as the upstream must receive it: method, URL, headers and body are final when this runs. */
  authorize(request: UpstreamRequest, channel: ChannelTarget): UpstreamRequest | Promise<UpstreamRequest>;
}

/** Builds a provider's auth from its channel (its settings, its resolved key); null when it needs none. */
export type UpstreamAuthFactory = (channel: ChannelTarget) => UpstreamAuth | null;
