import { randomBytes } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { encodeText } from './codec';
import { connectNats } from './connect';
import { NatsBus } from './nats-bus';
import { publishToStream } from './stream-publish';
import { ensureWorkQueueStream } from './work-queue-stream';

describe('publishing to a JetStream stream over the request multiplexer', () => {
  const tag = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const stream = `SPEC_${tag}`;
  const subject = `${tag}.spec.recorded`;
  let connection: NatsConnection;
  let bus: NatsBus;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'stream-publish-spec');
    bus = new NatsBus(connection, `${tag}.`);
    await ensureWorkQueueStream(connection, stream, subject, 60_000);
    // A second start-up finds the stream there.
    await ensureWorkQueueStream(connection, stream, subject, 60_000);
  });

  afterAll(async () => {
    const jsm = await connection.jetstreamManager();
    await jsm.streams.delete(stream);
    await connection.drain();
  });

  it('stores a message once per msgID and says when a retry was a duplicate', async () => {
    const first = await publishToStream(bus, subject, encodeText('one'), { stream, msgID: 'm-1' });
    const retry = await publishToStream(bus, subject, encodeText('one'), { stream, msgID: 'm-1' });
    const second = await publishToStream(bus, subject, encodeText('two'), { stream, msgID: 'm-2' });
    expect(first).toEqual({ seq: expect.any(Number), duplicate: false });
    expect(retry).toEqual({ seq: first.seq, duplicate: true });
    expect(second.seq).toBe(first.seq + 1);
    const info = await (await connection.jetstreamManager()).streams.info(stream);
    expect(info.state.messages).toBe(2);
  });

  it('rejects a publish the stream refuses, with the reason', async () => {
    await expect(publishToStream(bus, subject, encodeText('x'), { stream: 'NOT_THIS_ONE', msgID: 'm-3' })).rejects.toThrow(
      /JetStream refused the publish: .*stream/i,
    );
  });

  it('rejects a publish nobody stores', async () => {
    await expect(publishToStream(bus, `${tag}.nowhere`, encodeText('x'), { stream, msgID: 'm-4', timeoutMs: 500 })).rejects.toThrow(
      /did not acknowledge the publish: no_responders/,
    );
  });
});
