import type { ReplyNote } from '@gateway/contracts';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { randomBytes } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { RethrowFilter } from '../bootstrap/rethrow.filter';
import { connectNats } from './connect';
import { NatsBus } from './nats-bus';
import { NatsRpcTransport } from './nats-rpc.transport';
import { RpcContext } from './rpc-context';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Controller()
class SlowHandler {
  @MessagePattern('ops.slow')
  async slow(@Payload() payload: { ms: number }, @Ctx() ctx: RpcContext) {
    await sleep(payload.ms);
    Object.assign(ctx.note!, { model: 'm-1', channel: 'c-1', inputTokens: 3, outputTokens: 4 });
    return { slept: payload.ms };
  }

  @MessagePattern('chat.ops.stream')
  async *stream(@Payload() payload: { frames: number }, @Ctx() ctx: RpcContext) {
    for (let i = 0; i < payload.frames; i++) {
      await sleep(20);
      yield `data: ${i}\n\n`;
    }
    Object.assign(ctx.note!, { model: 'm-2', outputTokens: payload.frames });
  }
}

@Module({ controllers: [SlowHandler] })
class SlowModule {}

describe('NatsRpcTransport: reply notes and draining', () => {
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  let connection: NatsConnection;
  let app: INestMicroservice;
  let transport: NatsRpcTransport;
  let bus: NatsBus;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'transport-ops-spec');
    transport = new NatsRpcTransport(connection, prefix, 'chat', undefined, 2000);
    app = await NestFactory.createMicroservice(SlowModule, { strategy: transport, logger: false });
    app.useGlobalFilters(new RethrowFilter());
    await app.listen();
    bus = new NatsBus(connection, prefix);
  });

  afterAll(async () => {
    await app.close();
    await connection.drain();
  });

  it('tells the caller how a unary request and a stream were served', async () => {
    const notes: ReplyNote[] = [];
    await expect(bus.request('ops.slow', { ms: 1 }, z.object({ slept: z.number() }), { onNote: (n) => notes.push(n) })).resolves.toEqual({ slept: 1 });
    const frames: string[] = [];
    for await (const frame of bus.stream('chat.ops.stream', { frames: 2 }, { onNote: (n) => notes.push(n) })) frames.push(frame.kind);
    expect(frames).toEqual(['data', 'data', 'end']);
    expect(notes).toEqual([
      { model: 'm-1', channel: 'c-1', inputTokens: 3, outputTokens: 4 },
      { model: 'm-2', outputTokens: 2 },
    ]);
  });

  it('on close, takes no new request but answers those in flight, however long they drain', async () => {
    const inFlight = bus.request('ops.slow', { ms: 300 }, z.object({ slept: z.number() }));
    // Longer than the lost-request probe waits for a claim (two missed rounds): the draining transport still claims it.
    const long = bus.request('ops.slow', { ms: 7_000 }, z.object({ slept: z.number() }));
    const stream = (async () => {
      let data = 0;
      for await (const frame of bus.stream('chat.ops.stream', { frames: 10 })) if (frame.kind === 'data') data++;
      return data;
    })();
    await sleep(50);
    const closed = transport.close(10_000);
    await sleep(20);
    await expect(bus.request('ops.slow', { ms: 1 }, z.unknown(), { timeoutMs: 500 })).rejects.toMatchObject({ code: 'unavailable' });
    await expect(inFlight).resolves.toEqual({ slept: 300 });
    await expect(stream).resolves.toBe(10);
    await expect(long).resolves.toEqual({ slept: 7_000 });
    await closed;
  }, 20_000);
});
