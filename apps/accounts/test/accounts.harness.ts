import { InvalidationEvent, SUBJECTS, type GatewayConfigInput } from '@gateway/contracts';
import { createTestDatabase, type TestDatabase } from '@gateway/db';
import { connectNats, NatsBus, removeNamespace } from '@gateway/platform';
import type { INestMicroservice } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { startAccountsApp } from '../src/accounts.app';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** The accounts service running in-process on its own database and subject prefix, plus a client bus. */
export interface AccountsHarness {
  db: TestDatabase;
  bus: NatsBus;
  events: InvalidationEvent[];
  /** Resolves with the first broadcast (already received or coming) that matches. */
  nextEvent(match: (event: InvalidationEvent) => boolean, timeoutMs?: number): Promise<InvalidationEvent>;
  stop(): Promise<void>;
}

export async function startAccountsHarness(label: string): Promise<AccountsHarness> {
  const db = await createTestDatabase(undefined, label);
  const prefix = `t${Date.now()}${randomBytes(3).toString('hex')}.`;
  const serviceConnection: NatsConnection = await connectNats(NATS_URL, `${label}-service`);
  const clientConnection: NatsConnection = await connectNats(NATS_URL, `${label}-client`);
  const app: INestMicroservice = await startAccountsApp({ connection: serviceConnection, prefix, databaseUrl: db.url });
  const bus = new NatsBus(clientConnection, prefix);
  const events: InvalidationEvent[] = [];
  const waiters: (() => void)[] = [];
  bus.subscribe(SUBJECTS.accounts.invalidated, (payload) => {
    events.push(InvalidationEvent.parse(payload));
    waiters.splice(0).forEach((wake) => wake());
  });
  await clientConnection.flush();

  async function nextEvent(match: (event: InvalidationEvent) => boolean, timeoutMs = 2000): Promise<InvalidationEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching invalidation event within ${timeoutMs} ms; saw ${JSON.stringify(events)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  return {
    db,
    bus,
    events,
    nextEvent,
    async stop() {
      await app.close();
      await serviceConnection.drain();
      await clientConnection.drain();
      await removeNamespace({ natsUrl: NATS_URL, redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix });
      await db.drop();
    },
  };
}

/** A small catalog: one provider whose secret comes from the environment, a public and a private model, a plan, two tenants. */
export function catalogConfig(overrides: Partial<GatewayConfigInput> = {}): GatewayConfigInput {
  return {
    providers: [{ id: 'sandbox', protocol: 'openai', baseUrl: 'http://127.0.0.1:9100/v1', apiKeyEnv: 'ACCOUNTS_SPEC_SANDBOX_KEY' }],
    models: [
      {
        id: 'sandbox-gpt',
        displayName: 'Sandbox GPT',
        capability: 'chat',
        provider: 'sandbox',
        createdAt: '2025-01-01T00:00:00Z',
        prices: { inputPerMTok: '0.5', outputPerMTok: '1.5' },
        maxOutputTokens: 2048,
      },
      { id: 'sandbox-embed', displayName: 'Sandbox Embed', capability: 'embedding', provider: 'sandbox', createdAt: '2025-03-01T00:00:00Z' },
      {
        id: 'acme-private',
        displayName: 'Acme Private',
        capability: 'chat',
        public: false,
        createdAt: '2025-02-01T00:00:00Z',
        channels: [
          { provider: 'sandbox', upstreamModel: 'gpt-a', priority: 10 },
          { provider: 'sandbox', upstreamModel: 'gpt-b', priority: 1, weight: 3 },
        ],
      },
    ],
    plans: [{ name: 'starter', quota: { requests: 1000 }, period: '30d' }],
    tenants: [
      { slug: 'acme', name: 'Acme', billing: 'plan', plan: 'starter', models: ['acme-private'], featureControls: { mediaAuthorizedAssets: true } },
      { slug: 'globex' },
    ],
    ...overrides,
  };
}
