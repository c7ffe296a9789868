import { connect, type NatsConnection } from 'nats';

/** Connects to NATS, or fails with one line saying which server and how to start it. */
export async function connectNats(url: string, name: string): Promise<NatsConnection> {
  try {
    return await connect({ servers: url, name, maxReconnectAttempts: -1, reconnectTimeWait: 250, timeout: 3000 });
  } catch (error) {
    throw new Error(`NATS does not answer at ${url} (${(error as Error).message}); start it with: nats-server -js -a 127.0.0.1 -p 4222 &`);
  }
}
