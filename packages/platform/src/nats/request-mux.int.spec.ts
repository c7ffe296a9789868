import { GatewayError } from '@gateway/contracts';
import { randomBytes } from 'node:crypto';
import { headers as natsHeaders, type NatsConnection } from 'nats';
import { z } from 'zod';
import { connectNats } from './connect';
import { NatsBus } from './nats-bus';
import { RequestFailure, RequestMux } from './request-mux';

/** Requests the connection will not write fail their own caller; nothing is thrown out of a flush. */
describe('the request multiplexer on a real NATS server', () => {
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  let connection: NatsConnection;
  let limit: number;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'request-mux-spec');
    limit = connection.info!.max_payload;
    process.on('uncaughtException', onUncaught);
  });

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await connection.drain();
  });

  /** Headers of `bytes` bytes: a message whose data fits but whose whole does not. */
  function bigHeaders(bytes: number) {
    const h = natsHeaders();
    h.set('x-padding', 'h'.repeat(bytes));
    return h;
  }

  it('fails a request whose data is over max_payload with too_large, naming the limit', async () => {
    const mux = new RequestMux(connection);
    const failure = await mux.request(`${prefix}nowhere`, new Uint8Array(limit + 1), 1000).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestFailure);
    expect(failure).toMatchObject({ reason: 'too_large', limit });
    mux.close();
  });

  it('answers every request of a flush whose publish throws, and sends the others of the same turn', async () => {
    const mux = new RequestMux(connection);
    const answered = connection.subscribe(`${prefix}echo`, { callback: (_error, msg) => msg.respond(msg.data) });
    await connection.flush();
    // The data alone fits; with its headers the message is over the limit, so only the publish in the flush finds out.
    const tooBig = mux.request(`${prefix}echo`, new Uint8Array(limit - 100), 2000, { headers: bigHeaders(4096) }).catch((error: unknown) => error);
    const fine = mux.request(`${prefix}echo`, new TextEncoder().encode('small'), 2000);
    expect(await tooBig).toMatchObject({ reason: 'too_large' });
    expect(new TextDecoder().decode((await fine).data)).toBe('small');
    expect(uncaught).toEqual([]);
    answered.unsubscribe();
    mux.close();
  });

  it('ends a stream whose first publish throws with the failure, not a throw from stream()', async () => {
    const mux = new RequestMux(connection);
    const replies = mux.stream(`${prefix}nowhere`, new Uint8Array(limit - 100), 2000, { headers: bigHeaders(4096) });
    const failure = await (async () => {
      for await (const _msg of replies) return 'a message';
      return 'ended';
    })().catch((error: unknown) => error);
    expect(failure).toMatchObject({ reason: 'too_large' });
    mux.close();
  });

  it('turns an oversized unary request into a payload_too_large GatewayError at the bus', async () => {
    const bus = new NatsBus(connection, prefix);
    const error = await bus.request('nowhere', { blob: 'x'.repeat(limit) }, z.unknown(), { timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ code: 'payload_too_large' });
    expect((error as Error).message).toContain(String(limit));
    const streamed = bus.stream('chat.nowhere', { blob: 'x'.repeat(limit) });
    await expect(streamed.next()).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(uncaught).toEqual([]);
  });
});
