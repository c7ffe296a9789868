import { GatewayError } from '@gateway/contracts';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, type NatsConnection } from 'nats';
import { z } from 'zod';
import { RethrowFilter } from '../bootstrap/rethrow.filter';
import { startNatsCluster, type NatsCluster } from '../testing/nats-cluster';
import { connectNats } from './connect';
import { NatsBus, type StreamFrame } from './nats-bus';
import { NatsRpcTransport } from './nats-rpc.transport';
import { until } from '../testing/wait';

/** How long the held requests take: through more rounds of the probe than a lost request survives. */
const HELD_MS = 9_000;
/** A lost request fails within the probe's rounds (4.5 to 7 s), with room for a busy machine. */
const LOST_WITHIN_MS = 8_500;
let started = 0;

@Controller()
class HeldHandler {
  @MessagePattern('chat.probe.held')
  async held() {
    started++;
    await sleep(HELD_MS);
    return { done: true };
  }

  @MessagePattern('chat.probe.heldstream')
  async *heldStream() {
    started++;
    await sleep(HELD_MS);
    yield 'data: late\n\n';
  }
}

@Module({ controllers: [HeldHandler] })
class HeldModule {}

async function frames(stream: AsyncGenerator<StreamFrame>): Promise<string[]> {
  const seen: string[] = [];
  for await (const frame of stream) seen.push(`${frame.kind}:${Buffer.from(frame.data).toString()}`);
  return seen;
}

/**
 * A server of the cluster dies with requests in it while caller and service stay connected: the ones it
 * took with it (their service, on that server, never answers) fail in seconds as lost rather than wait
 * out their timeouts, while the ones a service on a surviving server holds get their answers.
 */
describe('requests lost with a NATS server that leaves the cluster', () => {
  const prefix = `p${randomBytes(4).toString('hex')}.`;
  let cluster: NatsCluster;
  let caller: NatsConnection;
  let holder: NatsConnection;
  let swallower: NatsConnection;
  let app: INestMicroservice;
  let bus: NatsBus;
  let swallowed = 0;

  beforeAll(async () => {
    cluster = await startNatsCluster(3);
    const [doomed, callerPort, holderPort] = cluster.ports as [number, number, number];
    // The service that goes down with the server: it takes requests and never answers.
    swallower = await connect({ servers: `nats://127.0.0.1:${doomed}`, reconnect: false });
    for (const subject of ['chat.probe.gone', 'chat.probe.gonestream'])
      swallower.subscribe(prefix + subject, { queue: 'chat', callback: () => void swallowed++ });
    holder = await connectNats(`nats://127.0.0.1:${holderPort}`, 'probe-holder');
    app = await NestFactory.createMicroservice(HeldModule, { strategy: new NatsRpcTransport(holder, prefix, 'chat'), logger: false });
    app.useGlobalFilters(new RethrowFilter());
    await app.listen();
    caller = await connectNats(`nats://127.0.0.1:${callerPort}`, 'probe-caller');
    bus = new NatsBus(caller, prefix);
    // Interest crosses the routes in a moment (milliseconds here): give it ample.
    await sleep(500);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await Promise.all([caller?.close(), holder?.close(), swallower?.isClosed() ? undefined : swallower?.close()]);
    await cluster?.stop();
  });

  it('fails the requests the server took with it as lost within seconds, and answers those a service holds', async () => {
    const long = { timeoutMs: 60_000 };
    const gone = bus.request('chat.probe.gone', {}, z.unknown(), long).catch((error: unknown) => error);
    const goneStream = frames(bus.stream('chat.probe.gonestream', {})).catch((error: unknown) => error);
    const held = bus.request('chat.probe.held', {}, z.object({ done: z.boolean() }), long);
    const heldStream = frames(bus.stream('chat.probe.heldstream', {}));
    await until('every request reaches its service', () => swallowed === 2 && started === 2);

    const killedAt = Date.now();
    await cluster.kill(cluster.ports[0]!);
    const [goneError, goneStreamError] = await Promise.all([gone, goneStream]);
    const failedAfter = Date.now() - killedAt;

    for (const error of [goneError, goneStreamError]) {
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ code: 'unavailable', retryAfterSeconds: 1 });
      expect((error as GatewayError).message).toMatch(/was lost with a NATS server that left the cluster/);
    }
    expect(failedAfter).toBeLessThan(LOST_WITHIN_MS);
    await expect(held).resolves.toEqual({ done: true });
    await expect(heldStream).resolves.toEqual(['data:data: late\n\n', 'end:']);
  }, 30_000);
});
