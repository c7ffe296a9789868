import { GatewayError, type AssistantsOp, type CatalogChannel, type CatalogChannelsReply } from '@gateway/contracts';
import { CatalogCache, type RouteCaller } from '@gateway/platform';
import { orderChannels } from '@gateway/providers';
import { Injectable } from '@nestjs/common';
import { AssistantObjectsRepository, type AssistantObjectKind, type ObjectHome, type OwnedObject } from './assistant-objects.repository';

/** Each operation's public route, for the messages that name it. */
const ROUTE_NAMES: Record<AssistantsOp, string> = {
  'assistants.create': 'POST /oaic/v1/assistants',
  'assistants.list': 'GET /oaic/v1/assistants',
  'assistants.get': 'GET /oaic/v1/assistants/{assistant_id}',
  'assistants.update': 'POST /oaic/v1/assistants/{assistant_id}',
  'assistants.delete': 'DELETE /oaic/v1/assistants/{assistant_id}',
  'threads.create': 'POST /oaic/v1/threads',
  'threads.get': 'GET /oaic/v1/threads/{thread_id}',
  'threads.update': 'POST /oaic/v1/threads/{thread_id}',
  'threads.delete': 'DELETE /oaic/v1/threads/{thread_id}',
  'threads.messages.create': 'POST /oaic/v1/threads/{thread_id}/messages',
  'threads.messages.list': 'GET /oaic/v1/threads/{thread_id}/messages',
  'threads.runs.create': 'POST /oaic/v1/threads/{thread_id}/runs',
  'threads.runs.list': 'GET /oaic/v1/threads/{thread_id}/runs',
};

const KIND_PARAMS: Record<AssistantObjectKind, string> = { assistant: 'assistant_id', thread: 'thread_id', run: 'run_id' };

const homeOf = ({ modelId, channelId, providerId }: ObjectHome): ObjectHome => ({ modelId, channelId, providerId });

/** The channels that serve the assistants API: OpenAI-protocol ones the catalog flags for it. */
export function assistantsChannels(channels: readonly CatalogChannel[]): CatalogChannel[] {
  return channels.filter((channel) => channel.protocol === 'openai' && channel.assistants);
}

/** What a request reaches: an owned object (or a new one's home) and the channel serving it. */
export interface Reached {
  home: ObjectHome;
  channel: CatalogChannel;
}

export interface ModelChannels {
  route: CatalogChannelsReply;
  /** In routing order (priority, then weight). */
  channels: CatalogChannel[];
}

/**
 * Where an assistants-API call goes. A new assistant goes to its model's assistants channels; every
 * later call naming an object goes to the channel recorded for it, and only for the tenant that owns it:
 * anyone else gets the 404 of an id that does not exist.
 */
@Injectable()
export class AssistantsRouting {
  constructor(
    private readonly catalog: CatalogCache,
    private readonly objects: AssistantObjectsRepository,
  ) {}

  /** The model's assistants channels, once the tenant is known to see it; none is a 400 naming the route. */
  async forModel(caller: RouteCaller, modelId: string, op: AssistantsOp): Promise<ModelChannels> {
    const route = await this.catalog.route(caller, modelId, 'chat');
    const channels = assistantsChannels(route.channels);
    if (channels.length === 0) {
      throw GatewayError.invalid(
        `The model '${modelId}' has no upstream that serves ${ROUTE_NAMES[op]}: the assistants API reaches only OpenAI-protocol channels flagged for it.`,
        'model',
      );
    }
    return { route, channels: orderChannels(channels) };
  }

  /** The one of the model's assistants channels on `providerId` (the upstream account holding an object). */
  async onProvider(
    caller: RouteCaller,
    modelId: string,
    providerId: string,
    op: AssistantsOp,
    holder: string,
  ): Promise<{ route: CatalogChannelsReply; channel: CatalogChannel }> {
    const { route, channels } = await this.forModel(caller, modelId, op);
    const channel = channels.find((candidate) => candidate.providerId === providerId);
    if (!channel)
      throw GatewayError.invalid(`The model '${modelId}' is not served by the upstream that holds ${holder}, so ${ROUTE_NAMES[op]} cannot use it.`, 'model');
    return { route, channel };
  }

  /** The tenant's object and its channel; another tenant's id reads exactly like a missing one. */
  async owned(tenantId: string, kind: AssistantObjectKind, id: string): Promise<OwnedObject & Reached> {
    const object = await this.objects.find(tenantId, kind, id);
    if (!object) throw GatewayError.notFound(`No ${kind} found with id '${id}'.`, KIND_PARAMS[kind]);
    return { ...object, home: homeOf(object), channel: await this.channelOf(object) };
  }

  /** The channel recorded for an object, as the catalog has it now. */
  async channelOf(home: ObjectHome): Promise<CatalogChannel> {
    const route = await this.catalog.channels(home.modelId).catch(() => null);
    const channel = route?.channels.find((candidate) => candidate.id === home.channelId);
    if (!channel) throw new GatewayError('unavailable', `The upstream channel that holds this object (model '${home.modelId}') is no longer configured.`);
    return channel;
  }

  /**
   * Where a new thread goes (a thread names no model): the channel of the tenant's newest assistant, so
   * its runs find that assistant; without one, the first model the tenant sees that has an assistants channel.
   */
  async forNewThread(tenantId: string): Promise<Reached> {
    const newest = await this.objects.newestAssistant(tenantId);
    if (newest) {
      const channel = await this.channelOf(newest).catch(() => null);
      if (channel) return { home: homeOf(newest), channel };
    }
    for (const modelId of await this.catalog.modelIds(tenantId, 'chat')) {
      const route = await this.catalog.channels(modelId).catch(() => null);
      const channel = orderChannels(assistantsChannels(route?.channels ?? []))[0];
      if (channel) return { home: { modelId, channelId: channel.id, providerId: channel.providerId }, channel };
    }
    throw GatewayError.invalid(`No model available to this key has an upstream that serves ${ROUTE_NAMES['threads.create']}.`);
  }
}
