import { connect, type NatsConnection } from 'nats';

/** How long a first connection may keep timing out (a server that is there but slow to answer, as on a busy machine). */
const FIRST_CONNECT_DEADLINE_MS = 20_000;
const ATTEMPT_TIMEOUT_MS = 3000;

const isTimeout = (error: unknown): boolean => (error as { code?: string }).code === 'TIMEOUT';

/** `NATS_URL` as the client takes it: one server, or several of a cluster, comma-separated. */
export function natsServersOf(url: string): string[] {
  return url
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
}

/**
 * Connects to NATS, or fails with one line saying which server and how to start it. A refused connection
 * (no server) fails at once; a handshake that times out is tried again until the deadline.
 */
export async function connectNats(url: string, name: string, deadlineMs = FIRST_CONNECT_DEADLINE_MS): Promise<NatsConnection> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      return await connect({ servers: natsServersOf(url), name, maxReconnectAttempts: -1, reconnectTimeWait: 250, timeout: ATTEMPT_TIMEOUT_MS });
    } catch (error) {
      if (isTimeout(error) && Date.now() + ATTEMPT_TIMEOUT_MS <= deadline) continue;
      throw new Error(`NATS does not answer at ${url} (${(error as Error).message}); start it with: nats-server -js -a 127.0.0.1 -p 4222 &`);
    }
  }
}
