import {
  CatalogChannelsReply,
  GatewayError,
  SUBJECTS,
  VisibleModelsReply,
  type BatchEndpoint,
  type CatalogChannel,
  type CatalogModel,
} from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import { BATCH_ENDPOINT_ROUTES } from '../batch-endpoints';

/** Where a native batch runs: one catalog model, and the one channel of it that takes whole batches. */
export interface NativeTarget {
  model: CatalogModel;
  channel: CatalogChannel;
}

/**
 * Decides whether a batch can be forwarded whole, and finds its channel again for each later step. A
 * batch is native when every line names the same model, the tenant may use it for the endpoint, and the
 * channel routing would try first speaks the OpenAI protocol and is flagged nativeBatch.
 */
@Injectable()
export class NativeBatchCatalog {
  constructor(private readonly bus: NatsBus) {}

  /** The target of a batch whose lines name `models` (as the validator reports them), or null: run it line by line. */
  async targetOf(tenantId: string, endpoint: BatchEndpoint, models: readonly string[]): Promise<NativeTarget | null> {
    if (models.length !== 1 || models[0] === '') return null;
    const modelId = models[0]!;
    const visible = await this.bus.request(SUBJECTS.accounts.models.visible, { tenantId }, VisibleModelsReply);
    // A model the tenant cannot use, or of another kind, fails line by line, each line with the live route's error.
    if (visible.find((m) => m.id === modelId)?.capability !== BATCH_ENDPOINT_ROUTES[endpoint].capability) return null;
    const { model, channels } = await this.channels(modelId);
    const first = channels[0];
    return first && first.protocol === 'openai' && first.nativeBatch ? { model, channel: first } : null;
  }

  /** The batch's model and channel as the catalog has them now (its key may have been rotated since). */
  async target(modelId: string, channelId: string): Promise<NativeTarget> {
    const { model, channels } = await this.channels(modelId);
    const channel = channels.find((c) => c.id === channelId);
    if (!channel) throw new GatewayError('unavailable', `The channel ${channelId} of model '${modelId}' that runs this batch is no longer in the catalog.`);
    return { model, channel };
  }

  private channels(modelId: string): Promise<CatalogChannelsReply> {
    return this.bus.request(SUBJECTS.accounts.catalog.channels, { modelId }, CatalogChannelsReply);
  }
}
