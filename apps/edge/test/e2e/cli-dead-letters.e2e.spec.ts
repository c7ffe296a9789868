/** `gatewayctl usage dead-letters` against the running stack: a poisoned usage event is listed, a fixed one replayed. */
import { DeadLetterList, DeadLetterReplayReply, sampleUsageEvent, usageStreamNames } from '@gateway/contracts';
import { connectNats, DeadLetterStream, encodeJson } from '@gateway/platform';
import type { NatsConnection } from 'nats';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { runCli } from './support/cli-runner';
import { e2eEnv } from './support/gateway';

describe('gatewayctl usage dead-letters', () => {
  let nats: NatsConnection;
  let sql: pg.Client;

  beforeAll(async () => {
    nats = await connectNats(e2eEnv().GW_E2E_NATS_URL, 'e2e-dead-letters');
    sql = new pg.Client({ connectionString: e2eEnv().GW_E2E_DATABASE_URL });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await nats?.drain();
  });

  async function listed(): Promise<DeadLetterList> {
    const result = await runCli(['usage', 'dead-letters', '--consumer', 'usage', '--limit', '1000', '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    return DeadLetterList.parse(JSON.parse(result.stdout));
  }

  it('lists a usage event Postgres refused, after its last delivery, with its error', async () => {
    const { subject, stream } = usageStreamNames(e2eEnv().GW_E2E_NATS_PREFIX);
    const poisoned = sampleUsageEvent({ tenantId: 'not-a-uuid' });
    await nats.jetstream().publish(subject, encodeJson({ events: [poisoned] }), { msgID: randomUUID(), expect: { streamName: stream } });

    const deadline = Date.now() + 20_000;
    let letter: DeadLetterList['data'][number] | undefined;
    while (!letter && Date.now() < deadline) {
      letter = (await listed()).data.find((d) => d.preview.includes(poisoned.requestId));
      if (!letter) await sleep(500);
    }
    expect(letter).toMatchObject({ consumer: 'usage', source: stream, deliveries: 5 });
    expect(letter!.error).toContain(poisoned.requestId);

    const human = await runCli(['usage', 'dead-letters']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^ID\s+CONSUMER\s+SOURCE\s+AT\s+DELIVERIES\s+ERROR\s+PREVIEW/);
    expect(human.stdout).toContain(letter!.id);
    expect(human.stdout).toMatch(/stored: usage \d+, ledger \d+/);
  }, 40_000);

  it('replays a dead letter whose cause is fixed to the usage stream and removes it', async () => {
    // A dead letter holding an event that now writes, as after the operator fixed the cause.
    const letters = new DeadLetterStream(nats, e2eEnv().GW_E2E_NATS_PREFIX);
    const fixed = sampleUsageEvent();
    const id = await letters.add({
      consumer: 'usage',
      source: usageStreamNames(e2eEnv().GW_E2E_NATS_PREFIX).stream,
      error: 'refused before the fix',
      deliveries: 5,
      at: new Date().toISOString(),
      payload: JSON.stringify({ events: [fixed], closes: [] }),
    });
    expect((await listed()).data.map((d) => d.id)).toContain(id);

    const replayed = await runCli(['usage', 'dead-letters', 'replay', '--id', id, '--json']);
    expect(replayed).toMatchObject({ code: 0, stderr: '' });
    expect(DeadLetterReplayReply.parse(JSON.parse(replayed.stdout))).toEqual({ replayed: [id], missing: [] });

    const deadline = Date.now() + 10_000;
    let rows = 0;
    while (rows === 0 && Date.now() < deadline) {
      rows = (await sql.query('SELECT 1 FROM usage_records WHERE request_id = $1', [fixed.requestId])).rowCount ?? 0;
      if (rows === 0) await sleep(200);
    }
    expect(rows).toBe(1);
    expect((await listed()).data.map((d) => d.id)).not.toContain(id);

    const again = await runCli(['usage', 'dead-letters', 'replay', '--id', id]);
    expect(again).toMatchObject({ code: 0, stdout: `replayed 0 dead letter(s)\nnot found: ${id}\n` });
  }, 30_000);

  it('refuses a replay naming neither ids nor --all, naming the flag', async () => {
    const result = await runCli(['usage', 'dead-letters', 'replay']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: invalid --id: give either ids or all\n');
  });
});
