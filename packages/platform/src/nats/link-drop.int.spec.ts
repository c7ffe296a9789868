import { GatewayError } from '@gateway/contracts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { z } from 'zod';
import { encodeReply } from './codec';
import { NatsBus } from './nats-bus';
import { freePort } from '../testing/free-port';

const NATS_SERVER = '/usr/sbin/nats-server';

function startServer(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-sd', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      if (!chunk.toString().includes('Server is ready')) return;
      child.stderr!.off('data', onData);
      resolve(child);
    };
    child.stderr!.on('data', onData);
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A bus on a NATS server of its own, which the spec kills and starts again. */
describe('the bus when its NATS link drops', () => {
  let port: number;
  let dir: string;
  let server: ChildProcess;
  let client: NatsConnection;
  let service: NatsConnection;
  let bus: NatsBus;

  beforeAll(async () => {
    port = await freePort();
    dir = await mkdtemp(path.join(os.tmpdir(), 'link-drop-'));
    server = await startServer(port, dir);
    const options = { servers: `127.0.0.1:${port}`, maxReconnectAttempts: -1, reconnectTimeWait: 100 };
    client = await connect({ ...options, name: 'link-drop-client' });
    service = await connect({ ...options, name: 'link-drop-service' });
    // `chat.silent` never answers; `chat.echo` answers at once.
    service.subscribe('chat.silent', { callback: () => undefined });
    // On the client's own connection, so it is back with the client's link, before any retry leaves.
    client.subscribe('chat.echo', { callback: (_e, msg) => msg.respond(encodeReply({ ok: true, data: 'pong' })) });
    await Promise.all([service.flush(), client.flush()]);
    bus = new NatsBus(client, '');
  });

  afterAll(async () => {
    if (server.exitCode === null && server.signalCode === null) {
      await Promise.all([client?.close(), service?.close()]);
      await stopServer(server);
    }
    await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it('fails waiting requests at the drop, new ones while down, and retries a read once the link is back', async () => {
    const waiting = bus.request('chat.silent', {}, z.unknown(), { timeoutMs: 30_000 }).catch((error: unknown) => error);
    const streaming = (async () => {
      for await (const frame of bus.stream('chat.silent', {}, { idleTimeoutMs: 30_000 })) void frame;
    })().catch((error: unknown) => error);
    await client.flush();

    const droppedAt = Date.now();
    const down = new Promise<void>((resolve) => bus.link.onDrop(resolve));
    await stopServer(server);
    await down;
    for (const failure of [await waiting, await streaming]) {
      expect(failure).toBeInstanceOf(GatewayError);
      expect(failure).toMatchObject({ code: 'unavailable', retryAfterSeconds: 1 });
    }
    expect(Date.now() - droppedAt).toBeLessThan(5000);

    await expect(bus.request('chat.echo', {}, z.string(), { timeoutMs: 30_000 })).rejects.toMatchObject({ code: 'unavailable', retryAfterSeconds: 1 });
    const read = bus.request('chat.echo', {}, z.string(), { timeoutMs: 30_000, idempotent: true });
    server = await startServer(port, dir);
    await expect(read).resolves.toBe('pong');
    expect(bus.link.isUp).toBe(true);
  }, 60_000);
});
