import { GatewayError, type CatalogChannel } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ResponsesRepository, type ResponseSource } from './responses.repository';

/**
 * Response records per tenant. Each stored response gets a gateway id, so ids from different
 * upstreams or channels can never collide and one tenant can never read another's record. The
 * upstream's id and the answering channel are kept beside it, for requests that continue it.
 */
@Injectable()
export class ResponsesService {
  constructor(private readonly repository: ResponsesRepository) {}

  newId(): string {
    return `resp_${randomBytes(16).toString('hex')}`;
  }

  /** Stores an upstream answer under a fresh gateway id and returns it as the client sees it. */
  async store(tenantId: string, upstreamBody: Record<string, unknown>, channelId: string): Promise<Record<string, unknown>> {
    const body = { ...upstreamBody, id: this.newId() };
    await this.save(tenantId, body, { upstreamId: typeof upstreamBody.id === 'string' ? upstreamBody.id : null, channelId });
    return body;
  }

  /** Stores a response that already carries its gateway id (a streamed response's final record, or one answered through chat). */
  async save(tenantId: string, body: Record<string, unknown> & { id: string }, source?: ResponseSource): Promise<void> {
    await this.repository.save(body.id, tenantId, body, source);
  }

  async get(tenantId: string, id: string): Promise<Record<string, unknown>> {
    const body = await this.repository.find(id, tenantId);
    if (!body) throw GatewayError.notFound(`No response found with id '${id}'.`, 'response_id');
    return body;
  }

  /** Where the tenant's response `id` came from; null when this tenant has no such response. */
  source(tenantId: string, id: string): Promise<ResponseSource | null> {
    return this.repository.source(id, tenantId);
  }

  /**
   * What a request naming `previousId` continues: the conversation lives with the upstream that answered,
   * under its own id, so the request goes to that channel only. Another tenant's id is not found.
   */
  async continuationOf(tenantId: string, previousId: string, channels: readonly CatalogChannel[]): Promise<{ upstreamId: string; channel: CatalogChannel }> {
    const source = await this.source(tenantId, previousId);
    if (!source) throw GatewayError.notFound(`No response found with id '${previousId}'.`, 'previous_response_id');
    if (!source.upstreamId || !source.channelId) {
      throw GatewayError.invalid(
        `The response '${previousId}' was answered through chat and cannot be continued by id; send its output as input items instead.`,
        'previous_response_id',
      );
    }
    const channel = channels.find((c) => c.id === source.channelId);
    if (!channel) {
      throw GatewayError.invalid(
        `The response '${previousId}' was answered by an upstream this model no longer uses; send its output as input items instead.`,
        'previous_response_id',
      );
    }
    return { upstreamId: source.upstreamId, channel };
  }
}
