import { GatewayError, type TenantCaller, type UsageEvent, type UsageKind } from '@gateway/contracts';

/** `cached` and `cacheWrite` are the prompt tokens an upstream's prompt cache read and wrote (part of `prompt`). */
export interface Tokens {
  prompt: number;
  completion: number;
  cached?: number;
  cacheWrite?: number;
}

/** Collects one request's usage facts as they become known, then renders the event. */
export class UsageMeter {
  private readonly startedAt = Date.now();
  modelId: string;
  channelId: string | null = null;
  tokens: Tokens = { prompt: 0, completion: 0 };
  /** Seconds of media, for what is priced per second (audio). */
  seconds?: number;
  /** What the record bills, when its route does not say (an answer from the response cache). */
  kind?: UsageKind;
  /** What the request costs whatever its tokens (an answer from the response cache), in micro-units. */
  costMicros?: bigint;

  constructor(
    private readonly caller: TenantCaller,
    private readonly family: string,
    modelId = '',
  ) {
    this.modelId = modelId;
  }

  event(outcome: string, status: number): UsageEvent {
    return {
      requestId: this.caller.requestId,
      ...(this.caller.clientRequestId !== undefined ? { clientRequestId: this.caller.clientRequestId } : {}),
      tenantId: this.caller.tenantId,
      keyId: this.caller.keyId,
      modelId: this.modelId,
      channelId: this.channelId,
      family: this.family,
      route: this.caller.route,
      promptTokens: this.tokens.prompt,
      completionTokens: this.tokens.completion,
      ...(this.tokens.cached ? { cachedTokens: this.tokens.cached } : {}),
      ...(this.tokens.cacheWrite ? { cacheWriteTokens: this.tokens.cacheWrite } : {}),
      ...(this.seconds !== undefined ? { seconds: this.seconds } : {}),
      ...(this.kind !== undefined ? { kind: this.kind } : {}),
      ...(this.costMicros !== undefined ? { costMicros: this.costMicros.toString() } : {}),
      latencyMs: Date.now() - this.startedAt,
      outcome,
      status,
      at: new Date(this.startedAt).toISOString(),
    };
  }

  ok(): UsageEvent {
    return this.event('ok', 200);
  }

  failed(error: unknown): UsageEvent {
    if (!(error instanceof GatewayError)) return this.event('error', 500);
    const outcome = error.code === 'upstream_error' || error.code === 'upstream_timeout' ? 'upstream_error' : 'error';
    return this.event(outcome, error.upstreamStatus ?? statusOf(error.code));
  }
}

function statusOf(code: GatewayError['code']): number {
  switch (code) {
    case 'invalid_request':
      return 400;
    case 'model_not_found':
    case 'not_found':
      return 404;
    case 'rate_limited':
    case 'insufficient_quota':
    case 'budget_exceeded':
      return 429;
    case 'upstream_timeout':
      return 504;
    case 'unavailable':
      return 503;
    case 'upstream_error':
      return 502;
    default:
      return 500;
  }
}
