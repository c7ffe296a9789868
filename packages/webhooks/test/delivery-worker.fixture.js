// A webhook delivery worker in a process of its own, for the crash spec: it is killed with SIGKILL mid-delivery.
const { createPrismaClient, createSqlPool } = require('@gateway/db');
const webhooks = require('@gateway/webhooks');

const env = webhooks.WebhooksEnv.parse(process.env);
const pool = createSqlPool(process.env.DATABASE_URL);
const repository = new webhooks.WebhookRepository(createPrismaClient(pool), pool);
const secrets = new webhooks.WebhookSecretService(repository, 60);
const sender = new webhooks.WebhookSender({ allowPrivate: true }, env.WEBHOOK_TIMEOUT_MS);
const queues = webhooks.createWebhookQueues(env.REDIS_URL, process.env.NATS_PREFIX);
const schedule = { baseMs: env.WEBHOOK_RETRY_BASE_MS, maxMs: env.WEBHOOK_RETRY_MAX_MS, maxAttempts: env.WEBHOOK_MAX_ATTEMPTS };
const delivery = new webhooks.WebhookDeliveryService(repository, secrets, sender, queues.queue(webhooks.WEBHOOK_QUEUE), schedule);
new webhooks.WebhookDeliveryProcessor(delivery, queues, env).start();
process.stdout.write('ready\n');
