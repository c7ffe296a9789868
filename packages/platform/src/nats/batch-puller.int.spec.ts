import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AckPolicy, nanos, type JetStreamManager, type NatsConnection } from 'nats';
import { BatchPuller } from './batch-puller';
import { decodeText, encodeText } from './codec';
import { connectNats } from './connect';
import { ensureWorkQueueStream } from './work-queue-stream';

describe('BatchPuller over a real JetStream consumer', () => {
  const tag = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const stream = `PULL_${tag}`;
  const subject = `${tag}.pull.recorded`;
  let connection: NatsConnection;
  let jsm: JetStreamManager;
  let puller: BatchPuller;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'batch-puller-spec');
    await ensureWorkQueueStream(connection, stream, subject, 60_000);
    jsm = await connection.jetstreamManager();
    await jsm.consumers.add(stream, { durable_name: 'writer', ack_policy: AckPolicy.Explicit, ack_wait: nanos(30_000) });
    puller = new BatchPuller(connection, stream, 'writer');
  });

  afterAll(async () => {
    puller.stop();
    await jsm.streams.delete(stream);
    await connection.drain();
  });

  async function publish(...texts: string[]): Promise<void> {
    const js = connection.jetstream();
    for (const text of texts) await js.publish(subject, encodeText(text));
  }

  async function unacknowledged(): Promise<number> {
    await connection.flush();
    const info = await jsm.consumers.info(stream, 'writer');
    return info.num_pending + info.num_ack_pending;
  }

  it('takes what the consumer holds in one pull and ends on the server answer; acknowledged, they are gone', async () => {
    await publish('a', 'b', 'c');
    const started = performance.now();
    const batch = await puller.pull(256, 5000);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(batch.map((m) => decodeText(m.data))).toEqual(['a', 'b', 'c']);
    for (const m of batch) m.ack();
    expect(await unacknowledged()).toBe(0);
    await expect(puller.pull(256, 5000)).resolves.toEqual([]);
  });

  it('ends a pull when its batch is full, and the next pull takes the rest', async () => {
    await publish('1', '2', '3', '4', '5');
    const first = await puller.pull(2, 5000);
    const rest = await puller.pull(10, 5000);
    expect(first.map((m) => decodeText(m.data))).toEqual(['1', '2']);
    expect(rest.map((m) => decodeText(m.data))).toEqual(['3', '4', '5']);
    for (const m of [...first, ...rest]) m.ack();
    expect(await unacknowledged()).toBe(0);
  });

  it('keeps a message delivered after its pull ended, and hands it over with the next pull', async () => {
    expect(await puller.pull(256, 5000)).toEqual([]);
    // What the server does when it stores a message while answering a pull: one more delivery after the answer.
    connection.publish(puller.inbox, encodeText('late'));
    await connection.flush();
    await sleep(20);
    await publish('next');
    const batch = await puller.pull(256, 5000);
    expect(batch.map((m) => decodeText(m.data))).toEqual(['late', 'next']);
    batch[1]!.ack();
  });

  it('redelivers a nak after its delay and never a terminated message', async () => {
    await publish('again', 'never');
    const [again, never] = await puller.pull(256, 5000);
    again!.nak(300);
    never!.term();
    expect(await puller.pull(256, 5000)).toEqual([]);
    await sleep(500);
    const redelivered = await puller.pull(256, 5000);
    expect(redelivered.map((m) => decodeText(m.data))).toEqual(['again']);
    // The server's delivery count rides each delivery: what a consumer counts attempts by.
    expect(again!.deliveries).toBe(1);
    expect(redelivered[0]!.deliveries).toBe(2);
    redelivered[0]!.ack();
    expect(await unacknowledged()).toBe(0);
  });

  it('fails a pull nobody answers (a consumer that is gone) after its timeout', async () => {
    const orphan = new BatchPuller(connection, stream, 'nobody');
    try {
      await expect(orphan.pull(10, 300)).rejects.toThrow(/no answer to a pull within 300 ms|refused/);
    } finally {
      orphan.stop();
    }
  });

  it('fails the pull in progress when stopped', async () => {
    const stopping = new BatchPuller(connection, stream, 'nobody');
    const pending = stopping.pull(10, 5000);
    stopping.stop();
    await expect(pending).rejects.toThrow('the puller is stopped');
    await expect(stopping.pull(10, 5000)).rejects.toThrow('the puller is stopped');
  });
});
