/**
 * The baseline of bench:edge: a bare Fastify route answering a model list like the edge's, in its own
 * process (as the edge is) so the load generator does not share its event loop. Prints its port.
 */
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

/** The edge's own answer when the bench hands it over (same bytes on the wire), else a similar list. */
const body = process.env.BARE_BODY_FILE
  ? readFileSync(process.env.BARE_BODY_FILE, 'utf8')
  : JSON.stringify({
      object: 'list',
      data: Array.from({ length: 10 }, (_, i) => ({
        id: `bare-model-${i}`,
        object: 'model',
        type: 'model',
        display_name: `Bare model ${i}`,
        created: 1735689600 + i,
        created_at: new Date((1735689600 + i) * 1000).toISOString(),
        owned_by: 'gateway',
      })),
      has_more: false,
      first_id: 'bare-model-0',
      last_id: 'bare-model-9',
    });

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/oaic/v1/models', (request, reply) => {
    // Same work shape as an authenticated route: read the header, answer prebuilt JSON.
    if (!request.headers.authorization) return reply.code(401).send({ error: 'missing key' });
    return reply.type('application/json').send(body);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
