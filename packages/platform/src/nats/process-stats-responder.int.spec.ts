import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessStats, SUBJECTS } from '@gateway/contracts';
import type { NatsConnection } from 'nats';
import { decodeJson, encodeJson } from './codec';
import { connectNats } from './connect';
import { answerProcessStats } from './process-stats-responder';

describe('the process-stats broadcast', () => {
  const prefix = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;
  let connection: NatsConnection;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'process-stats-spec');
  });

  afterAll(async () => {
    await connection.drain();
  });

  /** Every answer to one broadcast within `waitMs`. */
  async function broadcast(payload: unknown, waitMs = 300): Promise<unknown[]> {
    const inbox = `_INBOX.${randomBytes(6).toString('hex')}`;
    const answers: unknown[] = [];
    const subscription = connection.subscribe(inbox, { callback: (_e, msg) => answers.push(decodeJson(msg.data)) });
    connection.publish(prefix + SUBJECTS.ops.processStats, encodeJson(payload), { reply: inbox });
    await sleep(waitMs);
    subscription.unsubscribe();
    return answers;
  }

  it('is answered by every responder of the prefix, each with its own app name and live figures', async () => {
    const edge = answerProcessStats(connection, prefix, 'edge');
    const chat = answerProcessStats(connection, prefix, 'chat');
    await connection.flush();
    const answers = (await broadcast({})).map((answer) => ProcessStats.parse(answer));
    expect(answers.map((a) => a.app).sort()).toEqual(['chat', 'edge']);
    for (const answer of answers) {
      expect(answer.pid).toBe(process.pid);
      expect(answer.rssBytes).toBeGreaterThan(answer.heapUsedBytes);
      expect(answer.activeResources).toBeGreaterThan(0);
    }
    edge.unsubscribe();
    chat.unsubscribe();
    await connection.flush();
    expect(await broadcast({ collectGarbage: true })).toEqual([]);
  });

  it('ignores a request it cannot parse rather than answering nonsense', async () => {
    const responder = answerProcessStats(connection, prefix, 'accounts');
    await connection.flush();
    expect(await broadcast({ collectGarbage: 'yes' })).toEqual([]);
    expect(await broadcast({ collectGarbage: true })).toHaveLength(1);
    responder.unsubscribe();
  });
});
