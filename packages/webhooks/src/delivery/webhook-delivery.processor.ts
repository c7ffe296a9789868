import { Logger } from '@nestjs/common';
import { gatewayMetrics, type QueueFactory } from '@gateway/platform';
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
    const worker = this.queues.worker(WEBHOOK_QUEUE, WebhookJob, (job) => this.attempt(job), {
      concurrency: this.env.WEBHOOK_CONCURRENCY,
      lockDurationMs: this.env.WEBHOOK_LOCK_MS,
      stalledIntervalMs: this.env.WEBHOOK_LOCK_MS,
    });
    worker.on('failed', (job, error) => this.logger.warn(`delivery job ${job?.id ?? '?'} failed: ${error.message}`));
  }

  /** One attempt, counted by outcome (delivered, retrying, dead) for gateway_webhook_deliveries_total. */
  private async attempt(job: WebhookJob) {
    const outcome = await this.delivery.attempt(job.deliveryId, job.subjectId);
    if (outcome !== 'skipped') gatewayMetrics.webhookDeliveries.inc({ outcome });
    return outcome;
  }
}
