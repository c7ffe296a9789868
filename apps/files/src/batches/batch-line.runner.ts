import { claimCheckKey, GatewayError, httpStatusOf, OaicJsonReply, type BatchEndpoint, type ErrorCode, type OaicCallPayload } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { BATCH_ENDPOINT_ROUTES } from './batch-endpoints';
import type { BatchRow, PendingLine } from './batches.repository';
import { KeyBudgets } from './budgets/key-budgets';

/** Bodies larger than this go to the chat service by claim check, as the edge sends them (NATS's default max_payload is 1 MB). */
const CLAIM_CHECK_MIN_BYTES = 512 * 1024;
const CLAIM_CHECK_TTL_SECONDS = 600;

/** One output or error file line (OpenAI's batch output format). */
export interface BatchLineResult {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: unknown } | null;
  error: { code: string; message: string } | null;
}

const TYPE_OF = (code: ErrorCode): string =>
  code === 'invalid_request' || code === 'not_found' || code === 'model_not_found' ? 'invalid_request_error' : code;

/**
 * The NATS bus's own failures (no chat replica answering, no answer in time, the connection gone): not
 * the line's fault, so the line stays pending and is run again, instead of failing with the batch.
 */
export function isTransportFailure(error: GatewayError): boolean {
  return error.code === 'unavailable' && /^(No service answers |The connection closed )|did not answer in time$/.test(error.message);
}

/**
 * The server's request id of a line: derived from the batch and the line, so a line run again is the same
 * request to usage. A line refused for funds and run again after a wait (`attempt` 2 on) is a new request:
 * the refusal has its own usage row, and the usage stream would take the retry's record for a replay of it.
 */
export function lineRequestId(batchId: string, line: number, attempt = 1): string {
  return attempt === 1 ? `${batchId}-${line}` : `${batchId}-${line}-retry${attempt - 1}`;
}

export function lineResultId(batchId: string, line: number): string {
  return `batch_req_${createHash('sha256').update(`${batchId}:${line}`).digest('hex').slice(0, 24)}`;
}

/**
 * Runs one line through the chat service exactly as its live route runs: same subject, same caller
 * (the batch's key, billing mode and tenant), so it is routed, billed and metered like a live request;
 * the batch id rides as the client request id, the tag on its usage row.
 */
export class BatchLineRunner {
  private readonly budgets: KeyBudgets;

  constructor(
    private readonly bus: NatsBus,
    private readonly redis: Redis,
    private readonly timeoutMs: number,
  ) {
    this.budgets = new KeyBudgets(bus);
  }

  /** `fundsRefused`: the line was refused because the tenant's balance (or quota), less its holds, could not cover it. */
  async run(batch: BatchRow, line: PendingLine, attempt = 1): Promise<{ ok: boolean; result: BatchLineResult; fundsRefused?: boolean }> {
    const route = BATCH_ENDPOINT_ROUTES[batch.endpoint as BatchEndpoint];
    const requestId = lineRequestId(batch.id, line.line, attempt);
    const budgets = await this.budgets.of(batch.keyId);
    const caller = {
      requestId,
      clientRequestId: batch.id,
      tenantId: batch.tenantId,
      keyId: batch.keyId,
      keyKind: batch.keyKind as OaicCallPayload['keyKind'],
      route: route.route,
      ...(budgets.length > 0 ? { budgets } : {}),
    };
    const id = lineResultId(batch.id, line.line);
    try {
      const payload = await this.payload(caller, line.body);
      const body = await this.bus.request(route.subject, payload, OaicJsonReply, { timeoutMs: this.timeoutMs });
      return { ok: true, result: { id, custom_id: line.customId, response: { status_code: 200, request_id: requestId, body }, error: null } };
    } catch (error) {
      if (!(error instanceof GatewayError) || isTransportFailure(error)) throw error;
      const body = { error: { message: error.message, type: TYPE_OF(error.code), param: error.param, code: error.code } };
      const status = httpStatusOf(error);
      const result = { id, custom_id: line.customId, response: { status_code: status, request_id: requestId, body }, error: null };
      return { ok: false, result, fundsRefused: error.code === 'insufficient_quota' || error.code === 'budget_exceeded' };
    }
  }

  private async payload(caller: Omit<OaicCallPayload, 'body' | 'bodyRef'>, body: Record<string, unknown>): Promise<OaicCallPayload> {
    const json = JSON.stringify(body);
    if (Buffer.byteLength(json) < CLAIM_CHECK_MIN_BYTES) return { ...caller, body };
    const key = claimCheckKey(this.bus.prefix, caller.tenantId, caller.requestId);
    await this.redis.set(key, json, 'EX', CLAIM_CHECK_TTL_SECONDS);
    return { ...caller, bodyRef: { store: 'redis', key, bytes: Buffer.byteLength(json) } };
  }
}
