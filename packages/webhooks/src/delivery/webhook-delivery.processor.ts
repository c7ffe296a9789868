import { Logger } from '@nestjs/common';
import type { QueueFactory } from '@gateway/platform';
import { WEBHOOK_QUEUE, WebhookJob } from '../queue/webhook-queue';
import type { WebhooksEnv } from '../webhooks.env';
import type { WebhookDeliveryService } from './webhook-delivery.service';

/** The BullMQ worker of webhook deliveries: the factory parses the job, the processor makes one attempt. */
export class WebhookDeliveryProcessor {
  private readonly logger = new Logger('webhooks');

  constructor(
    private readonly delivery: WebhookDeliveryService,
    private readonly queues: QueueFactory,
    private readonly env: WebhooksEnv,
  ) {}

  start(): void {
    const worker = this.queues.worker(WEBHOOK_QUEUE, WebhookJob, (job) => this.delivery.attempt(job.deliveryId, job.subjectId), {
      concurrency: this.env.WEBHOOK_CONCURRENCY,
      lockDurationMs: this.env.WEBHOOK_LOCK_MS,
      stalledIntervalMs: this.env.WEBHOOK_LOCK_MS,
    });
    worker.on('failed', (job, error) => this.logger.warn(`delivery job ${job?.id ?? '?'} failed: ${error.message}`));
  }
}
