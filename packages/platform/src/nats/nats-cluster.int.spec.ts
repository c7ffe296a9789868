import type { NatsConnection } from 'nats';
import { startNatsCluster, type NatsCluster } from '../testing/nats-cluster';
import { connectNats } from './connect';
import { ensureStream } from './ensure-stream';
import { ensureWorkQueueStream } from './work-queue-stream';
import { retrying } from '../testing/wait';

describe('a three-node NATS cluster', () => {
  let cluster: NatsCluster;
  let connection: NatsConnection;
  const replicasBefore = process.env.NATS_STREAM_REPLICAS;

  beforeAll(async () => {
    cluster = await startNatsCluster(3);
    connection = await connectNats(cluster.url.replaceAll(',', ', '), 'cluster-spec');
  }, 60_000);

  afterAll(async () => {
    if (replicasBefore === undefined) delete process.env.NATS_STREAM_REPLICAS;
    else process.env.NATS_STREAM_REPLICAS = replicasBefore;
    await connection?.close();
    await cluster?.stop();
  });

  it('raises the copies of a stream made with fewer when the setting grows', async () => {
    process.env.NATS_STREAM_REPLICAS = '1';
    await retrying(() => ensureStream(connection, { name: 'SPEC_GROW', subjects: ['spec.grow.>'] }));
    const jsm = await connection.jetstreamManager();
    expect((await jsm.streams.info('SPEC_GROW')).config.num_replicas).toBe(1);
    process.env.NATS_STREAM_REPLICAS = '2';
    await retrying(() => ensureStream(connection, { name: 'SPEC_GROW', subjects: ['spec.grow.>'] }));
    expect((await jsm.streams.info('SPEC_GROW')).config.num_replicas).toBe(2);
  }, 60_000);

  it('keeps a stream in three copies and serves it after the node the client used is killed', async () => {
    process.env.NATS_STREAM_REPLICAS = '3';
    await retrying(() => ensureWorkQueueStream(connection, 'SPEC_HA', 'spec.ha.>', 60_000));
    const jsm = await connection.jetstreamManager();
    const info = await jsm.streams.info('SPEC_HA');
    expect(info.config.num_replicas).toBe(3);
    await retrying(async () => expect((await jsm.streams.info('SPEC_HA')).cluster?.replicas).toHaveLength(2));

    const js = connection.jetstream();
    for (let i = 0; i < 10; i++) await js.publish('spec.ha.one', `message ${i}`);
    const used = connection.info!.port;
    await cluster.kill(used);
    const stored = await retrying(async () => (await (await connection.jetstreamManager()).streams.info('SPEC_HA')).state.messages);
    expect(stored).toBe(10);
    expect(connection.info!.port).not.toBe(used);
    await retrying(() => js.publish('spec.ha.one', 'after the kill'));
    expect((await jsm.streams.info('SPEC_HA')).state.messages).toBe(11);
  }, 90_000);
});
