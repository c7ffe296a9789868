/**
 * The floor of bench:cpu: a bare Fastify route that hands each body to a bare NATS responder and sends its
 * answer back — one HTTP hop and one NATS request-reply, nothing else. With `FLOOR_ROLE=responder` it is
 * that responder. Prints its port (0 for the responder) once ready.
 */
import Fastify from 'fastify';
import { connect } from 'nats';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const SUBJECT = process.env.FLOOR_SUBJECT ?? 'floor.echo';

/** About the size of the sandbox's chat completion. */
const ANSWER = new TextEncoder().encode(
  JSON.stringify({
    id: 'chatcmpl-floor',
    object: 'chat.completion',
    created: 1735689600,
    model: 'sandbox-gpt',
    choices: [{ index: 0, message: { role: 'assistant', content: 'A short answer from the floor of the benchmark.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 },
  }),
);

async function responder(): Promise<void> {
  const nc = await connect({ servers: NATS_URL, name: 'bench-floor-responder' });
  nc.subscribe(SUBJECT, { queue: 'floor', callback: (_error, message) => message.respond(ANSWER) });
  await nc.flush();
  process.stdout.write('0\n');
  process.once('SIGTERM', () => void nc.drain().then(() => process.exit(0)));
}

async function server(): Promise<void> {
  const nc = await connect({ servers: NATS_URL, name: 'bench-floor-http' });
  const app = Fastify({ logger: false });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post('/floor', async (request, reply) => {
    const answer = await nc.request(SUBJECT, request.body as Buffer, { timeout: 10_000 });
    return reply.type('application/json').send(Buffer.from(answer.data));
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => void app.close().then(() => nc.drain().then(() => process.exit(0))));
}

void (process.env.FLOOR_ROLE === 'responder' ? responder() : server());
