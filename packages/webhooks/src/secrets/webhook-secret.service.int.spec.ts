import { createPrismaClient, createSqlPool, createTestDatabase, type PrismaClient, type TestDatabase } from '@gateway/db';
import { connectNats, NatsBus } from '@gateway/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import { signatureOf, signWebhook } from '../signing/webhook-signature';
import { WebhookRepository } from '../store/webhook.repository';
import { WebhookSecretService } from './webhook-secret.service';

// Rotation against a real Postgres: what signs a delivery right after a rotation, with and without revocation.
jest.setTimeout(60_000);
describe('webhook secret rotation', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let secrets: WebhookSecretService;

  beforeAll(async () => {
    db = await createTestDatabase(undefined, 'webhooksecret');
    const pool = createSqlPool(db.url);
    prisma = createPrismaClient(pool);
    secrets = new WebhookSecretService(new WebhookRepository(prisma, pool), 86_400);
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  /** The signatures of a delivery made now, and whether each given secret's signature is among them. */
  async function signsWith(tenantId: string, candidates: string[]): Promise<boolean[]> {
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook(await secrets.signingSecrets(tenantId), 'msg_1', now, '{}');
    const sent = headers['webhook-signature'].split(' ');
    return candidates.map((secret) => sent.includes(signatureOf(secret, 'msg_1', now, '{}')));
  }

  it('keeps the replaced secret signing for its grace window after a plain rotation', async () => {
    const tenantId = randomUUID();
    const first = await secrets.rotate(tenantId);
    const second = await secrets.rotate(tenantId);
    expect(second.previousValidUntil!.getTime()).toBeGreaterThan(Date.now() + 86_000_000);
    expect(await signsWith(tenantId, [second.secret, first.secret])).toEqual([true, true]);
  });

  it('ends every earlier secret at once with revokePrevious: a delivery carries only the new signature', async () => {
    const tenantId = randomUUID();
    const leaked = await secrets.rotate(tenantId);
    const inGrace = await secrets.rotate(tenantId);
    expect(await signsWith(tenantId, [inGrace.secret, leaked.secret])).toEqual([true, true]);

    const fresh = await secrets.rotate(tenantId, { revokePrevious: true });
    expect(fresh.previousValidUntil!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await signsWith(tenantId, [fresh.secret, inGrace.secret, leaked.secret])).toEqual([true, false, false]);
    expect(await secrets.signingSecrets(tenantId)).toEqual([fresh.secret]);
  });

  it('leaves other tenants’ secrets alone', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const kept = await secrets.rotate(b);
    await secrets.rotate(a);
    await secrets.rotate(a, { revokePrevious: true });
    expect(await secrets.signingSecrets(b)).toEqual([kept.secret]);
  });

  it('ends the revoked secret at once in every process, not after their caches age', async () => {
    const connection = await connectNats('nats://127.0.0.1:4222', 'webhook-secret-spec');
    const bus = new NatsBus(connection, `whs${randomBytes(4).toString('hex')}.`);
    const pool = createSqlPool(db.url, 2);
    const repository = new WebhookRepository(createPrismaClient(pool), pool);
    const worker = new WebhookSecretService(repository, 86_400, bus);
    const operator = new WebhookSecretService(repository, 86_400, bus);
    try {
      await connection.flush();
      const tenantId = randomUUID();
      const leaked = await operator.rotate(tenantId);
      expect(await worker.signingSecrets(tenantId)).toEqual([leaked.secret]);
      const fresh = await operator.rotate(tenantId, { revokePrevious: true });
      await connection.flush();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await worker.signingSecrets(tenantId)).toEqual([fresh.secret]);
    } finally {
      await connection.drain();
      await pool.end();
    }
  });
});
