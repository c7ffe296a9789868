import { Logger } from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import { z } from 'zod';
import { WEBHOOK_QUEUE, redisConnection, webhookQueuePrefix, type WebhookJob } from '../queue/webhook-queue';
import type { WebhooksEnv } from '../webhooks.env';
import type { WebhookDeliveryService } from './webhook-delivery.service';

const JobData = z.object({ deliveryId: z.string().min(1) });

/** The BullMQ worker of webhook deliveries: parses the job and makes one attempt. */
export class WebhookDeliveryProcessor {
  private readonly logger = new Logger('webhooks');
  private worker: Worker<WebhookJob> | null = null;

  constructor(
    private readonly delivery: WebhookDeliveryService,
    private readonly env: WebhooksEnv,
    private readonly natsPrefix: string,
  ) {}

  start(): void {
    this.worker = new Worker<WebhookJob>(WEBHOOK_QUEUE, (job: Job<WebhookJob>) => this.delivery.attempt(JobData.parse(job.data).deliveryId), {
      connection: redisConnection(this.env.REDIS_URL),
      prefix: webhookQueuePrefix(this.natsPrefix),
      concurrency: this.env.WEBHOOK_CONCURRENCY,
      lockDuration: this.env.WEBHOOK_LOCK_MS,
      stalledInterval: this.env.WEBHOOK_LOCK_MS,
    });
    this.worker.on('failed', (job, error) => this.logger.warn(`delivery job ${job?.id ?? '?'} failed: ${error.message}`));
    this.worker.on('error', (error) => this.logger.error(`webhook worker: ${error.message}`));
  }

  async stop(): Promise<void> {
    await this.worker?.close();
  }
}
