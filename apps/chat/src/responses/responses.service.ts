import { GatewayError } from '@gateway/contracts';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ResponsesRepository } from './responses.repository';

/**
 * Response records per tenant. Each stored response gets a gateway id, so ids from different
 * upstreams or channels can never collide and one tenant can never read another's record.
 */
@Injectable()
export class ResponsesService {
  constructor(private readonly repository: ResponsesRepository) {}

  newId(): string {
    return `resp_${randomBytes(16).toString('hex')}`;
  }

  /** Stores an upstream answer under a fresh gateway id and returns it as the client sees it. */
  async store(tenantId: string, upstreamBody: Record<string, unknown>): Promise<Record<string, unknown>> {
    const body = { ...upstreamBody, id: this.newId() };
    await this.save(tenantId, body);
    return body;
  }

  /** Stores a response that already carries its gateway id (a streamed response's final record). */
  async save(tenantId: string, body: Record<string, unknown> & { id: string }): Promise<void> {
    await this.repository.save(body.id, tenantId, body);
  }

  async get(tenantId: string, id: string): Promise<Record<string, unknown>> {
    const body = await this.repository.find(id, tenantId);
    if (!body) throw GatewayError.notFound(`No response found with id '${id}'.`, 'response_id');
    return body;
  }
}
