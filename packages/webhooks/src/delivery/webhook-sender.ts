// One HTTP attempt at a receiver: a POST of the signed body, no redirects followed, bounded by the
// timeout, every connection made through the destination policy's lookup.
import type { WebhookAttemptOutcome } from '@gateway/contracts';
import { Agent, buildConnector, request } from 'undici';
import { addressProblem, DestinationRefused, guardedLookup, literalAddressOf, type DestinationSettings } from './destination-policy';
import type { WebhookHeaders } from '../signing/webhook-signature';

export interface SendResult {
  outcome: WebhookAttemptOutcome;
  responseStatus: number | null;
  latencyMs: number;
  error: string | null;
}

const USER_AGENT = 'model-gateway-webhooks/1';

function refusedOf(error: unknown): DestinationRefused | null {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof DestinationRefused || (current as { code?: string }).code === 'EWEBHOOKREFUSED') return current as DestinationRefused;
  }
  return null;
}

export class WebhookSender {
  private readonly agent: Agent;
  private closing: Promise<void> | null = null;

  /**
   * One keep-alive pool per receiver origin, as wide as the worker's concurrency: a receiver that hangs
   * holds its own connections only, and deliveries to a healthy one never queue behind them.
   */
  constructor(
    private readonly settings: DestinationSettings,
    private readonly timeoutMs: number,
    connectionsPerOrigin = 256,
  ) {
    // A connection to one of the gateway's own ports is judged with that port in mind: on this machine it is refused.
    const connectorFor = (port?: number) =>
      buildConnector({ lookup: guardedLookup(settings, undefined, port), timeout: timeoutMs } as buildConnector.BuildOptions);
    const anyPort = connectorFor();
    const ownPorts = new Map([...(settings.ownPorts ?? [])].map((port) => [port, connectorFor(port)] as const));
    this.agent = new Agent({
      connect: (options, callback) => {
        const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
        return (ownPorts.get(port) ?? anyPort)(options, callback);
      },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 4_000,
      connections: connectionsPerOrigin,
    });
  }

  async send(url: string, headers: WebhookHeaders, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = new URL(url);
    const literal = literalAddressOf(target);
    const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
    const literalProblem = literal === null ? null : addressProblem(literal, this.settings, port);
    if (literalProblem) return { outcome: 'refused', responseStatus: null, latencyMs: 0, error: `the callback host ${literalProblem}` };
    try {
      const response = await request(target, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const status = response.statusCode;
      if (status >= 200 && status < 300) return { outcome: 'delivered', responseStatus: status, latencyMs: elapsed(), error: null };
      const error = status >= 300 && status < 400 ? `the receiver answered ${status} (redirects are not followed)` : `the receiver answered ${status}`;
      return { outcome: 'failed', responseStatus: status, latencyMs: elapsed(), error };
    } catch (error) {
      const refused = refusedOf(error);
      if (refused) return { outcome: 'refused', responseStatus: null, latencyMs: elapsed(), error: refused.message };
      const name = (error as Error).name;
      const code = (error as { code?: string }).code ?? '';
      if (name === 'TimeoutError' || name === 'AbortError' || code.includes('TIMEOUT')) {
        return { outcome: 'timeout', responseStatus: null, latencyMs: elapsed(), error: `no answer within ${this.timeoutMs} ms` };
      }
      return { outcome: 'failed', responseStatus: null, latencyMs: elapsed(), error: `${code || name}: ${(error as Error).message}`.slice(0, 500) };
    }
  }

  /** Once: shutdown hooks may run twice (a signal, then the close it starts), and a second close of the pool throws. */
  close(): Promise<void> {
    this.closing ??= this.agent.close();
    return this.closing;
  }
}
