import { SUBJECTS, type InvalidationEvent, type KeyContext, type RpcReply, type VisibleModel } from '@gateway/contracts';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Msg, NatsConnection, Subscription } from 'nats';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

type Handler = (payload: unknown) => unknown;

/**
 * A stand-in for the accounts service in edge integration tests: real NATS subscriptions on a test's
 * own prefix, answering with the RpcReply envelope, with every request counted.
 */
export class FakeAccounts {
  readonly keys = new Map<string, KeyContext>();
  readonly models = new Map<string, VisibleModel[]>();
  readonly calls = new Map<string, unknown[]>();
  private readonly handlers = new Map<string, Handler>();
  private readonly subscriptions: Subscription[] = [];

  constructor(
    private readonly connection: NatsConnection,
    private readonly prefix: string,
  ) {
    this.on(SUBJECTS.accounts.keys.resolve, (payload) => this.keys.get((payload as { keyHash: string }).keyHash) ?? null);
    this.on(SUBJECTS.accounts.models.visible, (payload) => this.models.get((payload as { tenantId: string }).tenantId) ?? []);
  }

  static prefix(): string {
    return `t${Date.now()}${randomBytes(3).toString('hex')}.`;
  }

  /** Answers `subject` with `handler`'s value; a thrown error becomes an error reply with its code. */
  on(subject: string, handler: Handler): void {
    this.handlers.set(subject, handler);
    if (this.subscriptions.some((s) => s.getSubject() === this.prefix + subject)) return;
    this.subscriptions.push(this.connection.subscribe(this.prefix + subject, { callback: (_e, msg) => this.answer(subject, msg) }));
  }

  /** Answers health pings for every service name given, as bootstrapped services do. */
  answerHealth(services: readonly string[]): void {
    for (const service of services) this.on(`${service}.health.ping`, () => ({ service }));
  }

  count(subject: string): number {
    return this.calls.get(subject)?.length ?? 0;
  }

  /** Registers a key for `tenantId` and returns the plain key. */
  addKey(tenantId: string, overrides: Partial<KeyContext> = {}): { key: string; context: KeyContext } {
    const key = `sk-${randomBytes(16).toString('hex')}`;
    const context: KeyContext = {
      keyId: randomUUID(),
      keyName: 'test',
      kind: 'payg',
      tenantId,
      tenantSlug: `slug-${tenantId}`,
      billing: 'payg',
      expiresAt: null,
      expiredBy: null,
      models: [],
      budgets: [],
      featureControls: { mediaAuthorizedAssets: true },
      ...overrides,
    };
    this.keys.set(hashOf(key), context);
    return { key, context };
  }

  broadcast(event: Partial<InvalidationEvent>): void {
    this.connection.publish(this.prefix + SUBJECTS.accounts.invalidated, encoder.encode(JSON.stringify(event)));
  }

  /** Stops answering; resolves once the server has dropped the subscriptions (a request sent after it finds nobody). */
  async close(): Promise<void> {
    for (const sub of this.subscriptions) sub.unsubscribe();
    await this.connection.flush();
  }

  private answer(subject: string, msg: Msg): void {
    const payload: unknown = msg.data.length ? JSON.parse(decoder.decode(msg.data)) : undefined;
    this.calls.set(subject, [...(this.calls.get(subject) ?? []), payload]);
    let reply: RpcReply;
    try {
      reply = { ok: true, data: this.handlers.get(subject)!(payload) ?? null };
    } catch (error) {
      const { code = 'internal', message } = error as { code?: string; message: string };
      reply = { ok: false, error: { code: code as 'internal', message } };
    }
    msg.respond(encoder.encode(JSON.stringify(reply)));
  }
}

export function hashOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** `count` models of `capability`, created one day apart, newest last. */
export function buildModels(count: number, capability: VisibleModel['capability'] = 'chat', namePrefix = 'model'): VisibleModel[] {
  const start = Date.parse('2025-01-01T00:00:00Z');
  return Array.from({ length: count }, (_, i) => ({
    id: `${namePrefix}-${String(i).padStart(3, '0')}`,
    displayName: `Model ${i}`,
    capability,
    createdAt: new Date(start + i * 86_400_000).toISOString(),
  }));
}
