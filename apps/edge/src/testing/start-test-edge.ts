import { randomBytes } from 'node:crypto';
import { connectNats } from '@gateway/platform';
import type { NatsConnection } from 'nats';
import { EdgeEnv } from '../config/edge-env';
import { createEdgeApp, type EdgeApp, type EdgeAppOptions } from '../edge.app';
import { FakeAccounts } from './fake-accounts';

export interface TestEdge {
  edge: EdgeApp;
  accounts: FakeAccounts;
  connection: NatsConnection;
  prefix: string;
  stop(): Promise<void>;
}

/** The signed-link route reads its secret from the environment at start-up, and has no default. */
export function ensureTestSigningSecret(): void {
  process.env.SIGNED_URL_SECRET ??= randomBytes(24).toString('hex');
}

/** An edge on random ports and its own NATS prefix, with a fake accounts service behind it. */
export async function startTestEdge(env: Record<string, string> = {}, options: Omit<EdgeAppOptions, 'connection'> = {}): Promise<TestEdge> {
  ensureTestSigningSecret();
  const prefix = FakeAccounts.prefix();
  const connection = await connectNats('nats://127.0.0.1:4222', 'edge-test-accounts');
  const accounts = new FakeAccounts(connection, prefix);
  await connection.flush();
  const edge = await createEdgeApp(EdgeEnv.parse({ NATS_PREFIX: prefix, PORT: '0', ADMIN_PORT: '0', LOG_LEVEL: 'error', ...env }), options);
  return {
    edge,
    accounts,
    connection,
    prefix,
    async stop() {
      await edge.close();
      await accounts.close();
      await connection.drain();
    },
  };
}
