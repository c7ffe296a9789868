import { claimCheckKey, GatewayError, parseOrThrow, type OaicCallPayload } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import type { z } from 'zod';

/**
 * Reads bodies that came by claim check: the edge parked them in Redis because they exceed what one
 * NATS message may carry. The key is taken once (GETDEL) so large bodies do not linger, and only the
 * key of this very request is redeemed: it names the caller's tenant and the server's request id.
 */
@Injectable()
export class ClaimCheckService {
  constructor(
    private readonly redis: Redis,
    private readonly bus: NatsBus,
  ) {}

  /**
   * The body by `schema`: taken as typed when the edge already parsed it by the same schema (`checked`),
   * parsed here when it comes from anywhere else.
   */
  async checkedBody<S extends z.ZodType>(payload: OaicCallPayload, schema: S): Promise<z.infer<S>> {
    const body = await this.body(payload);
    return payload.checked ? (body as z.infer<S>) : parseOrThrow(schema, body);
  }

  async body(payload: OaicCallPayload): Promise<unknown> {
    if (!payload.bodyRef) return payload.body;
    if (payload.bodyRef.key !== claimCheckKey(this.bus.prefix, payload.tenantId, payload.requestId)) {
      throw new GatewayError('internal', 'The claim check names another request.');
    }
    const text = await this.redis.getdel(payload.bodyRef.key);
    if (text === null) throw new GatewayError('invalid_request', 'The request body expired before it could be processed; retry the request.');
    return JSON.parse(text) as unknown;
  }
}
