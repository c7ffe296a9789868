import { Logger } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { gatewayMetrics, type QueueFactory } from '@gateway/platform';
import { WEBHOOK_QUEUE, WebhookJob } from '../queue/webhook-queue';
import type { WebhooksEnv } from '../webhooks-env';
import type { WebhookDeliveryService } from './webhook-delivery.service';

/**
 * A BullMQ worker takes jobs one Redis round trip after another until all its slots are full, and starts
 * none before: with hundreds of slots, a burst's first delivery waited for hundreds of fetches. Several
 * workers of a few slots each take jobs side by side and start each one sooner.
 */
const SLOTS_PER_WORKER = 16;

/** The BullMQ workers of webhook deliveries (WEBHOOK_CONCURRENCY slots in all): the factory parses the job, the processor makes one attempt. */
export class WebhookDeliveryProcessor {
  private readonly logger = new Logger('webhooks');

  constructor(
    private readonly delivery: WebhookDeliveryService,
    private readonly queues: QueueFactory,
    private readonly env: WebhooksEnv,
  ) {}

  start(): void {
    let slots = this.env.WEBHOOK_CONCURRENCY;
    while (slots > 0) {
      const concurrency = Math.min(SLOTS_PER_WORKER, slots);
      slots -= concurrency;
      const worker = this.queues.worker(WEBHOOK_QUEUE, WebhookJob, (data, job, token) => this.attempt(data, job, token), {
        concurrency,
        lockDurationMs: this.env.WEBHOOK_LOCK_MS,
        stalledIntervalMs: this.env.WEBHOOK_LOCK_MS,
      });
      worker.on('failed', (job, error) => this.logger.warn(`delivery job ${job?.id ?? '?'} failed: ${error.message}`));
    }
  }

  /**
   * One attempt, counted by outcome (delivered, retrying, dead) for gateway_webhook_deliveries_total. A
   * delivery whose receiver or tenant has its share of slots busy gives its slot back at once: the same
   * job (same id, no attempt counted) waits in the delayed set and comes back when a slot of that share
   * frees in this process, or after WEBHOOK_DEFER_MS.
   */
  private async attempt(data: WebhookJob, job: Job, token: string | undefined) {
    const outcome = await this.delivery.attempt(data.deliveryId, data.subjectId, job.id);
    if (outcome === 'deferred' && token !== undefined) {
      const wait = this.env.WEBHOOK_DEFER_MS * (0.8 + Math.random() * 0.4);
      await job.moveToDelayed(Date.now() + Math.round(wait), token);
      throw new DelayedError();
    }
    if (outcome !== 'skipped' && outcome !== 'deferred') gatewayMetrics.webhookDeliveries.inc({ outcome });
    return outcome;
  }
}
