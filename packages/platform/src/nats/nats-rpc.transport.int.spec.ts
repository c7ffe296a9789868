import { GatewayError, parseOrThrow } from '@gateway/contracts';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { randomBytes } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { RethrowFilter } from '../bootstrap/rethrow.filter';
import { decodeText, encodeText } from './codec';
import { connectNats } from './connect';
import { NatsBus } from './nats-bus';
import { NatsRpcTransport } from './nats-rpc.transport';
import { ReplyBarrier } from './reply-barrier';
import { RpcContext } from './rpc-context';
import { until } from '../testing/wait';

const Echo = z.object({ text: z.string() });

const events: unknown[] = [];
const cancelled: string[] = [];
/** Records the fixture owes the reply barrier: published by its hook, ahead of the replies. */
const owed: string[] = [];

@Controller()
class FixtureHandler {
  @MessagePattern('fixture.echo')
  echo(@Payload() payload: unknown) {
    const { text } = parseOrThrow(Echo, payload);
    owed.push(text);
    return { echoed: text };
  }

  @MessagePattern('fixture.fail')
  fail(): never {
    throw GatewayError.invalid("Missing required parameter: 'model'.", 'model');
  }

  @MessagePattern('fixture.crash')
  crash(): never {
    throw new Error('secret internals');
  }

  @MessagePattern('chat.fixture.count')
  async *count(@Payload() payload: { upTo: number; delayMs?: number }, @Ctx() ctx: RpcContext) {
    let i = 0;
    try {
      while (++i <= payload.upTo && !ctx.signal.aborted) {
        if (payload.delayMs) await new Promise((r) => setTimeout(r, payload.delayMs));
        yield `data: ${i}\n\n`;
      }
    } finally {
      if (i <= payload.upTo) cancelled.push(`stopped at ${i}`);
    }
  }

  /** A stream whose cache outcome is known before its first frame, and its model only at its end. */
  @MessagePattern('chat.fixture.noted')
  async *noted(@Payload() payload: { cache?: 'hit' | 'miss' }, @Ctx() ctx: RpcContext) {
    if (payload.cache && ctx.note) ctx.note.cache = payload.cache;
    yield 'data: 1\n\n';
    await new Promise((r) => setTimeout(r, 5));
    yield 'data: 2\n\n';
    if (ctx.note) ctx.note.model = 'noted-model';
  }

  @MessagePattern('fixture.huge')
  huge() {
    return { blob: 'x'.repeat(2 * 1024 * 1024) };
  }

  @MessagePattern('chat.fixture.huge')
  async *hugeFrame() {
    yield 'x'.repeat(2 * 1024 * 1024);
  }

  @EventPattern('fixture.broadcast')
  onBroadcast(@Payload() payload: unknown) {
    events.push(payload);
  }
}

@Module({ controllers: [FixtureHandler] })
class FixtureModule {}

describe('NatsRpcTransport over a real NATS server', () => {
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  let connection: NatsConnection;
  let app: INestMicroservice;
  let bus: NatsBus;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'transport-spec');
    const barrier = new ReplyBarrier();
    barrier.register(() => {
      for (const text of owed.splice(0)) connection.publish(`${prefix}fixture.record`, encodeText(text));
    });
    app = await NestFactory.createMicroservice(FixtureModule, {
      strategy: new NatsRpcTransport(connection, prefix, 'chat', barrier),
      logger: false,
    });
    app.useGlobalFilters(new RethrowFilter());
    await app.listen();
    bus = new NatsBus(connection, prefix);
  });

  afterAll(async () => {
    await app.close();
    await connection.drain();
  });

  it('answers a unary request with the parsed payload', async () => {
    await expect(bus.request('fixture.echo', { text: 'hi' }, z.object({ echoed: z.string() }))).resolves.toEqual({ echoed: 'hi' });
  });

  it('carries a domain error back with its code and field', async () => {
    const error = await bus.request('fixture.fail', {}, z.unknown()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'invalid_request', param: 'model' });
  });

  it('turns a validation failure into invalid_request naming the field', async () => {
    const error = await bus.request('fixture.echo', { text: 5 }, z.unknown()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_request', param: 'text' });
  });

  it('hides unexpected errors behind an internal error', async () => {
    const error = (await bus.request('fixture.crash', {}, z.unknown()).catch((e: unknown) => e)) as GatewayError;
    expect(error.code).toBe('internal');
    expect(error.message).not.toContain('secret');
  });

  it('writes what the barrier owes ahead of every reply, with the replies of one turn together', async () => {
    const spy = await connectNats('nats://127.0.0.1:4222', 'transport-spy');
    const seen: string[] = [];
    spy.subscribe(`${prefix}fixture.record`, { callback: (_e, msg) => seen.push(`record ${decodeText(msg.data)}`) });
    // Every inbox on the server, other suites' included: keep only this test's echo replies.
    spy.subscribe('_INBOX.>', {
      callback: (_e, msg) => {
        const text = decodeText(msg.data);
        const echoed = /^\{"ok":true,"data":\{"echoed":"(t\d+)"\}\}$/.exec(text)?.[1];
        if (echoed) seen.push(`reply ${echoed}`);
      },
    });
    await spy.flush();
    const texts = Array.from({ length: 20 }, (_, i) => `t${i}`);
    try {
      await Promise.all(texts.map((text) => bus.request('fixture.echo', { text }, z.unknown())));
      await spy.flush();
    } finally {
      await spy.close();
    }
    for (const text of texts) {
      const record = seen.indexOf(`record ${text}`);
      expect(record).toBeGreaterThanOrEqual(0);
      expect(record).toBeLessThan(seen.indexOf(`reply ${text}`));
    }
    expect(seen.filter((s) => s.startsWith('reply'))).toHaveLength(20);
  });

  it('answers a reply over the payload limit with an error instead of crashing when it has no reply store, and keeps serving', async () => {
    const unary = await bus.request('fixture.huge', {}, z.unknown()).catch((e: unknown) => e);
    expect(unary).toMatchObject({ code: 'upstream_error' });
    await expect(bus.request('fixture.echo', { text: 'still here' }, z.object({ echoed: z.string() }))).resolves.toEqual({ echoed: 'still here' });
  });

  it('fails a request its handler never answers as unavailable, after the timeout', async () => {
    const silent = connection.subscribe(`${prefix}fixture.silent`, { callback: () => undefined });
    // Twice, with a pause between: the timeout sweep stops while nothing waits and starts again with the next request.
    for (const pauseMs of [0, 200]) {
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const started = Date.now();
      const error = await bus.request('fixture.silent', {}, z.unknown(), { timeoutMs: 300 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'unavailable', message: 'fixture.silent did not answer in time' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(Date.now() - started).toBeLessThan(1300);
    }
    silent.unsubscribe();
  });

  it('reports an unanswered subject as unavailable', async () => {
    const error = await bus.request('fixture.nobody', {}, z.unknown(), { timeoutMs: 500 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unavailable' });
  });

  it('streams every frame in order, then ends; the frames of one turn travel as one message', async () => {
    const frames: string[] = [];
    for await (const frame of bus.stream('chat.fixture.count', { upTo: 5 })) {
      if (frame.kind === 'data') frames.push(decodeText(frame.data));
      else frames.push('<end>');
    }
    expect(frames).toEqual(['data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\ndata: 5\n\n', '<end>']);
  });

  it("tells a stream's cache outcome with its first frame, and the whole note with its end", async () => {
    const seen = async (payload: object) => {
      const log: unknown[] = [];
      const onNote = (note: object) => log.push(note);
      for await (const frame of bus.stream('chat.fixture.noted', payload, { onNote }))
        log.push(frame.kind === 'data' ? decodeText(frame.data).trim() : '<end>');
      return log;
    };
    expect(await seen({ cache: 'hit' })).toEqual([{ cache: 'hit' }, 'data: 1', 'data: 2', { cache: 'hit', model: 'noted-model' }, '<end>']);
    expect(await seen({})).toEqual(['data: 1', 'data: 2', { model: 'noted-model' }, '<end>']);
  });

  it('carries a stream frame over the payload limit as consecutive frames of its bytes, in order', async () => {
    const parts: Uint8Array[] = [];
    for await (const frame of bus.stream('chat.fixture.huge', {})) if (frame.kind === 'data') parts.push(frame.data);
    expect(parts.length).toBeGreaterThan(1);
    expect(Buffer.concat(parts).toString()).toBe('x'.repeat(2 * 1024 * 1024));
  });

  it('sends a frame produced in a later turn at once, as its own message', async () => {
    const frames: string[] = [];
    for await (const frame of bus.stream('chat.fixture.count', { upTo: 3, delayMs: 40 })) {
      if (frame.kind === 'data') frames.push(decodeText(frame.data));
    }
    // Each frame comes out of its own timer, so in a turn of its own: one held back for the next would
    // have travelled with it as one message (see the spec above), however the machine's clock ran.
    expect(frames).toEqual(['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n']);
  });

  it('cancels the handler when the caller aborts', async () => {
    const abort = new AbortController();
    let received = 0;
    // Far more frames than a loaded machine could send before the cancel arrives: only the cancel stops it.
    for await (const frame of bus.stream('chat.fixture.count', { upTo: 100_000, delayMs: 5 }, { signal: abort.signal })) {
      if (frame.kind === 'data' && ++received === 3) abort.abort();
    }
    await until('the handler records its cancel', () => cancelled.length === 1);
    expect(received).toBeGreaterThanOrEqual(3);
    expect(Number(cancelled[0]!.split(' ').pop())).toBeLessThan(100_000);
  });

  it('cancels only the stream whose caller aborted', async () => {
    const before = cancelled.length;
    const abort = new AbortController();
    const read = async (signal?: AbortSignal) => {
      let received = 0;
      // The aborted stream has far more frames than could be sent before its cancel arrives.
      for await (const frame of bus.stream('chat.fixture.count', { upTo: signal ? 100_000 : 10, delayMs: 5 }, { signal })) {
        if (frame.kind !== 'data') continue;
        received += decodeText(frame.data).split('\n\n').filter(Boolean).length;
        if (signal && received >= 3) abort.abort();
      }
      return received;
    };
    const [aborted, whole] = await Promise.all([read(abort.signal), read()]);
    await until('the aborted stream records its cancel', () => cancelled.length - before === 1);
    expect(aborted).toBeLessThan(100_000);
    expect(whole).toBe(10);
    // The whole stream ended on its own: nothing else was cancelled.
    await bus.request('fixture.echo', { text: 'a round trip after both' }, z.object({ echoed: z.string() }));
    expect(cancelled.length - before).toBe(1);
  });

  it('reports an unanswered stream subject as unavailable', async () => {
    const read = async () => {
      for await (const frame of bus.stream('chat.fixture.nobody', {})) void frame;
    };
    await expect(read()).rejects.toMatchObject({ code: 'unavailable', message: 'No service answers chat.fixture.nobody' });
  });

  it('fails a stream that goes silent as upstream_timeout, and cancels its handler', async () => {
    const before = cancelled.length;
    const frames: string[] = [];
    const read = async () => {
      // The first frame would come 2 s in; the caller gives up after 100 ms of silence.
      for await (const frame of bus.stream('chat.fixture.count', { upTo: 3, delayMs: 2000 }, { idleTimeoutMs: 100 })) frames.push(frame.kind);
    };
    const started = performance.now();
    await expect(read()).rejects.toMatchObject({ code: 'upstream_timeout' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(frames).toEqual([]);
    // The handler sees its cancel once its current wait ends.
    await until('the silent handler records its cancel', () => cancelled.length > before);
    expect(cancelled.slice(before)).toEqual(['stopped at 1']);
  });

  it('delivers broadcasts to event handlers', async () => {
    bus.publish('fixture.broadcast', { catalog: true });
    await connection.flush();
    await until('the broadcast reaches its handler', () => events.some((event) => JSON.stringify(event) === JSON.stringify({ catalog: true })));
    expect(events).toContainEqual({ catalog: true });
  });
});
