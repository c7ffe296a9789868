import { randomBytes } from 'node:crypto';
import { ProcessStats, SUBJECTS } from '@gateway/contracts';
import type { NatsConnection, Subscription } from 'nats';
import { decodeJson, encodeJson } from './codec';
import { connectNats } from './connect';
import { answerProcessStats } from './process-stats-responder';

const FENCE = 'fence';

describe('the process-stats broadcast', () => {
  const prefix = `t${Date.now().toString(36)}${randomBytes(3).toString('hex')}.`;
  let connection: NatsConnection;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'process-stats-spec');
    connection.subscribe(`${prefix}fence`, { callback: (_e, msg) => msg.respond(encodeJson(FENCE)) });
  });

  afterAll(async () => {
    await connection.drain();
  });

  /**
   * Every answer to one broadcast. A fence subject answered on the same connection is asked right after
   * it: responders answer synchronously and NATS keeps one connection's order, so once the fence's answer
   * is in, every answer to the broadcast is too, however slow the machine.
   */
  async function broadcast(payload: unknown): Promise<unknown[]> {
    const inbox = `_INBOX.${randomBytes(6).toString('hex')}`;
    const answers: unknown[] = [];
    let subscription: Subscription | undefined;
    const fenced = new Promise<void>((resolve) => {
      subscription = connection.subscribe(inbox, {
        callback: (_e, msg) => {
          const answer = decodeJson(msg.data);
          if (answer === FENCE) resolve();
          else answers.push(answer);
        },
      });
    });
    connection.publish(prefix + SUBJECTS.ops.processStats, encodeJson(payload), { reply: inbox });
    connection.publish(`${prefix}fence`, encodeJson({}), { reply: inbox });
    await fenced;
    subscription?.unsubscribe();
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
