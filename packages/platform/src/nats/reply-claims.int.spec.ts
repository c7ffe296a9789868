import { NATS_HEADERS } from '@gateway/contracts';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { headers as natsHeaders, type NatsConnection } from 'nats';
import { z } from 'zod';
import { RethrowFilter } from '../bootstrap/rethrow.filter';
import { connectNats } from './connect';
import { NatsBus } from './nats-bus';
import { NatsRpcTransport } from './nats-rpc.transport';
import { ReplyBarrier } from './reply-barrier';
import { RedisReplyStore, type ReplyStore } from './reply-claims';

const TWO_MB = 2 * 1024 * 1024;

@Controller()
class LargeReplyHandler {
  @MessagePattern('fixture.large')
  large(@Payload() payload: { bytes: number }) {
    // Varied text, so a reply cut or joined in the wrong place cannot compare equal.
    const blob = Array.from({ length: Math.ceil(payload.bytes / 8) }, (_, i) => i.toString(36).padStart(8, '.')).join('');
    return { blob: blob.slice(0, payload.bytes), end: 'whole' };
  }
}

@Module({ controllers: [LargeReplyHandler] })
class LargeReplyModule {}

/** The reply claim check on a real NATS server and Redis: replies over max_payload wait in Redis and arrive whole. */
describe('reply claim checks over NATS and Redis', () => {
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  let serverConnection: NatsConnection;
  let callerConnection: NatsConnection;
  let app: INestMicroservice;
  let redis: Redis;
  let server: NatsBus;
  let caller: NatsBus;
  const keys: string[] = [];

  beforeAll(async () => {
    redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
    serverConnection = await connectNats('nats://127.0.0.1:4222', 'reply-claims-service');
    callerConnection = await connectNats('nats://127.0.0.1:4222', 'reply-claims-caller');
    server = new NatsBus(serverConnection, prefix);
    const store = new RedisReplyStore(redis);
    // The service's store notes each key it parks, so the spec can see that the caller took it.
    const noting: ReplyStore = { park: (key, data, ttl) => (keys.push(key), store.park(key, data, ttl)), take: (key) => store.take(key) };
    server.replyClaims.use(noting);
    app = await NestFactory.createMicroservice(LargeReplyModule, {
      strategy: new NatsRpcTransport(serverConnection, prefix, 'chat', new ReplyBarrier(), 5_000, server.replyClaims),
      logger: false,
    });
    app.useGlobalFilters(new RethrowFilter());
    await app.listen();
    caller = new NatsBus(callerConnection, prefix);
    caller.replyClaims.use(new RedisReplyStore(redis));
  });

  afterAll(async () => {
    await app.close();
    await serverConnection.drain();
    await callerConnection.drain();
    redis.disconnect();
  });

  const Large = z.object({ blob: z.string(), end: z.literal('whole') });

  it('delivers a 2 MB reply whole, taken once from Redis under a key naming the tenant and request', async () => {
    expect(serverConnection.info!.max_payload).toBeLessThan(TWO_MB);
    const reply = await caller.request('fixture.large', { bytes: TWO_MB, tenantId: 'tenant-a', requestId: 'req-1' }, Large);
    expect(reply.blob).toHaveLength(TWO_MB);
    expect(reply.blob.slice(-16)).toBe((TWO_MB / 8 - 2).toString(36).padStart(8, '.') + (TWO_MB / 8 - 1).toString(36).padStart(8, '.'));
    const key = keys.at(-1)!;
    expect(key.startsWith(`${prefix}reply:tenant-a:req-1:chat:`)).toBe(true);
    expect(await redis.exists(key)).toBe(0);
  });

  it('answers small replies inline, parking nothing', async () => {
    const before = keys.length;
    await expect(caller.request('fixture.large', { bytes: 1000 }, Large)).resolves.toMatchObject({ end: 'whole' });
    expect(keys).toHaveLength(before);
  });

  it('serves many large replies at once, each to its own caller', async () => {
    const sizes = [TWO_MB, 1_500_000, 3_000_000, 1_100_000];
    const replies = await Promise.all(sizes.map((bytes) => caller.request('fixture.large', { bytes }, Large)));
    expect(replies.map((r) => r.blob.length)).toEqual(sizes);
  });

  it('fails as unavailable, naming the subject, when the caller has no reply store', async () => {
    const bare = new NatsBus(callerConnection, prefix);
    await expect(bare.request('fixture.large', { bytes: TWO_MB }, Large)).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('fixture.large'),
    });
  });

  it('fails as unavailable when the parked reply is gone before the caller reads it', async () => {
    const forgetful = new NatsBus(callerConnection, prefix);
    forgetful.replyClaims.use({ park: () => Promise.resolve(), take: () => Promise.resolve(null) });
    await expect(forgetful.request('fixture.large', { bytes: TWO_MB }, Large)).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('expired'),
    });
  });

  it('refuses a reference outside its own deployment', async () => {
    const elsewhere = new NatsBus(callerConnection, prefix);
    const other = new NatsBus(callerConnection, 'elsewhere.');
    elsewhere.replyClaims.use({ park: () => Promise.resolve(), take: () => Promise.resolve(new Uint8Array()) });
    // A reference whose key is not under the caller's prefix: answered by hand on the caller's subject.
    const sub = callerConnection.subscribe(`${prefix}fixture.forged`, {
      callback: (_e, msg) => {
        const h = natsHeaders();
        h.set(NATS_HEADERS.replyRef, `${other.prefix}reply:x:y:chat:z`);
        msg.respond(new Uint8Array(), { headers: h });
      },
    });
    await expect(elsewhere.request('fixture.forged', {}, z.unknown())).rejects.toMatchObject({ code: 'internal' });
    sub.unsubscribe();
  });
});
