import { Logger } from '@nestjs/common';
import type { WebhookDeliveryService } from './webhook-delivery.service';

/**
 * Every WEBHOOK_SWEEP_MS in the worker role, queues again the deliveries that were recorded but that no job
 * will make (their queuing failed after the outbox's insert committed, or their job ended without moving them),
 * once they have been due for a whole sweep interval. One sweep at a time per process; sweeps of several
 * processes overlap harmlessly, since an attempt's job id is fixed.
 */
export class WebhookDeliverySweeper {
  private readonly logger = new Logger('webhooks');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly delivery: WebhookDeliveryService,
    private readonly everyMs: number,
    private readonly graceMs: number = everyMs,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.sweep().finally(() => (this.running = null));
  }

  private async sweep(): Promise<void> {
    try {
      const queued = await this.delivery.resumeStalled(this.graceMs);
      if (queued > 0) this.logger.warn(`the webhook sweep queued ${queued} deliveries that had no job to make them`);
    } catch (error) {
      // Postgres or Redis away: the next sweep tries again.
      this.logger.warn(`the webhook sweep failed: ${(error as Error).message}`);
    }
  }
}
