import type { Queue } from 'bullmq';
import { retryDelayMs, type RetrySchedule } from './retry-schedule';
import type { DeliverySlots } from './delivery-slots';
import type { SendResult, WebhookSender } from './webhook-sender';
import type { WebhookJob } from '../queue/webhook-queue';
import type { WebhookSecretService } from '../secrets/webhook-secret.service';
import { signWebhook } from '../signing/webhook-signature';
import type { DeliveryRow, DueDelivery, WebhookRepository } from '../store/webhook.repository';

/** How long finished jobs stay in Redis, so a second enqueue of the same attempt is recognised and dropped. */
const KEEP_JOBS = { age: 3600, count: 50_000 };

/** How often, and how long apart, a woken job still being deferred is tried again. */
const PROMOTE_TRIES = 5;
const PROMOTE_RETRY_MS = 5;

/** Stalled heads looked at per statement, and statements per sweep: a sweep's work stays bounded. */
const SWEEP_PAGE = 500;
const SWEEP_PAGES = 20;

/** One job id per (delivery, attempt): queuing an attempt that is already queued, running or kept adds nothing. */
export function deliveryJobId(deliveryId: string, attempt: number): string {
  return `${deliveryId}-${attempt}`;
}

/** `deferred`: the receiver's or tenant's share of slots was full; nothing was attempted or recorded. */
export type AttemptResult = 'delivered' | 'retrying' | 'dead' | 'skipped' | 'deferred';

/**
 * Makes deliveries: one attempt per job, in order per subject (a delivery waits until every earlier one
 * of its subject has been delivered or dead-lettered), each attempt recorded, the next one scheduled
 * with backoff, the last one dead-lettered. Jobs are idempotent: an ended delivery or one that is not
 * its subject's head is skipped.
 */
export class WebhookDeliveryService {
  constructor(
    private readonly repository: WebhookRepository,
    private readonly secrets: WebhookSecretService,
    private readonly sender: WebhookSender,
    private readonly queue: Queue<WebhookJob>,
    private readonly schedule: RetrySchedule,
    private readonly slots: DeliverySlots | null = null,
    /** How long a delivery waits here for a slot of its full share before it is deferred. */
    private readonly slotWaitMs = 0,
  ) {
    // A deferred delivery waits in the delayed set; a slot freed in its share brings it back at once.
    slots?.onFreed((jobId) => void this.promote(jobId));
  }

  /**
   * Queues the next delivery of each subject, if any; safe to call any number of times. Called only after
   * the caller's own write has committed, so of two writers racing on one subject (a new event recorded,
   * the head delivered) at least one sees the other's write and queues the delivery that is due. `known`:
   * heads the caller's own insert already settled (see InsertedDeliveries), queued without a read.
   */
  async kick(subjectIds: readonly string[], known: readonly DueDelivery[] = []): Promise<void> {
    const due = [...known, ...(subjectIds.length > 0 ? await this.repository.dueOf(subjectIds) : [])];
    await this.enqueue(due.map((head) => ({ delivery: head, attempt: head.attempts + 1, at: head.nextAttemptAt })));
  }

  /**
   * One attempt at `deliveryId`, made only while it is the first delivery of its subject still pending.
   * `jobId` is woken when a slot frees in the share that deferred it.
   */
  async attempt(deliveryId: string, subjectId: string, jobId?: string): Promise<AttemptResult> {
    const delivery = await this.repository.headOf(subjectId);
    if (delivery?.id !== deliveryId) return 'skipped';
    const release = this.slots ? await this.slots.acquire(delivery.tenantId, delivery.url, this.slotWaitMs, jobId) : () => undefined;
    if (!release) return 'deferred';
    try {
      return await this.attemptHead(delivery, release);
    } finally {
      release();
    }
  }

  /** `sent` frees the delivery's slot once the receiver has answered (or not): recording the attempt does not hold it. */
  private async attemptHead(delivery: DeliveryRow, sent: () => void): Promise<AttemptResult> {
    const attempt = delivery.attempts + 1;
    const body = JSON.stringify(delivery.payload);
    const startedAt = new Date();
    const headers = signWebhook(await this.secrets.signingSecrets(delivery.tenantId), delivery.id, Math.floor(startedAt.getTime() / 1000), body);
    let outcome: SendResult;
    try {
      outcome = await this.sender.send(delivery.url, headers, body);
    } finally {
      sent();
    }
    return this.recordOutcome(delivery, attempt, startedAt, outcome);
  }

  private async recordOutcome(delivery: DeliveryRow, attempt: number, startedAt: Date, sent: SendResult): Promise<AttemptResult> {
    const record = { deliveryId: delivery.id, attempt, startedAt, ...sent };
    if (sent.outcome === 'delivered' || sent.outcome === 'refused') {
      const status = sent.outcome === 'delivered' ? 'delivered' : 'dead';
      await this.repository.recordAttempt({ ...record, nextAttemptAt: null }, status);
      await this.kick([delivery.subjectId]);
      return status;
    }
    const delay = retryDelayMs(this.schedule, attempt);
    if (delay === null) {
      await this.repository.recordAttempt({ ...record, nextAttemptAt: null }, 'dead');
      await this.kick([delivery.subjectId]);
      return 'dead';
    }
    const nextAttemptAt = new Date(Date.now() + delay);
    await this.repository.recordAttempt({ ...record, nextAttemptAt }, 'pending');
    await this.enqueue([{ delivery, attempt: attempt + 1, at: nextAttemptAt }]);
    return 'retrying';
  }

  /**
   * The sweep: queues again each subject whose next delivery has been due for longer than `graceMs` and
   * has no job that will make it, because queuing it failed after its row committed, or its job ended
   * without moving it (every try failed, or it ran while another delivery was its subject's head). A job
   * waiting, delayed or running is left alone. Returns how many were queued.
   */
  async resumeStalled(graceMs: number): Promise<number> {
    const dueBefore = new Date(Date.now() - graceMs);
    let after: { dueAt: Date; id: string } | null = null;
    let queued = 0;
    for (let page = 0; page < SWEEP_PAGES; page++) {
      const heads = await this.repository.stalledHeads(dueBefore, after, SWEEP_PAGE);
      const orphans = (await Promise.all(heads.map(async (head) => ((await this.hasLiveJob(head)) ? null : head)))).filter((head) => head !== null);
      await this.enqueue(orphans.map((head) => ({ delivery: head, attempt: head.attempts + 1, at: head.nextAttemptAt })));
      queued += orphans.length;
      if (heads.length < SWEEP_PAGE) break;
      after = heads[heads.length - 1]!;
    }
    return queued;
  }

  /** Whether the head's next attempt has a job still to run; an ended one is removed, so that its id can be queued again. */
  private async hasLiveJob(head: DueDelivery): Promise<boolean> {
    const job = await this.queue.getJob(deliveryJobId(head.id, head.attempts + 1));
    if (!job) return false;
    const state = await job.getState();
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return true;
    // Another sweeper may have removed it first: either way the id is free or already queued again.
    await job.remove().catch(() => undefined);
    return false;
  }

  /** An operator's redelivery: the delivery (delivered or dead) gets another attempt under the same webhook-id. */
  async redeliver(deliveryId: string): Promise<DeliveryRow | null> {
    const reopened = await this.repository.reopen(deliveryId);
    if (reopened) await this.kick([reopened.subjectId]);
    return reopened;
  }

  /**
   * A deferred job due now: moved from the delayed set to the wait list. A job still active is being moved
   * there by the run that deferred it, so it is tried again shortly; any other is left to its own timer.
   */
  private async promote(jobId: string, tries = 0): Promise<void> {
    const job = await this.queue.getJob(jobId).catch(() => undefined);
    if (!job) return;
    try {
      await job.promote();
    } catch {
      if (tries >= PROMOTE_TRIES || (await job.getState().catch(() => 'unknown')) !== 'active') return;
      setTimeout(() => void this.promote(jobId, tries + 1), PROMOTE_RETRY_MS).unref();
    }
  }

  /** Queues attempts, each due now or at its time; a job id per (delivery, attempt), so queuing one twice adds it once. */
  private async enqueue(due: readonly { delivery: DueDelivery; attempt: number; at: Date | null }[]): Promise<void> {
    if (due.length === 0) return;
    const jobs = due.map(({ delivery, attempt, at }) => ({
      name: 'deliver',
      data: { deliveryId: delivery.id, subjectId: delivery.subjectId },
      opts: {
        jobId: deliveryJobId(delivery.id, attempt),
        // A delay of 0 puts the job straight into the wait list; any delay at all goes through the delayed set.
        delay: at === null ? 0 : Math.max(0, at.getTime() - Date.now()),
        removeOnComplete: KEEP_JOBS,
        removeOnFail: KEEP_JOBS,
        attempts: 3,
        backoff: { type: 'fixed', delay: 1000 },
      },
    }));
    if (jobs.length === 1) await this.queue.add(jobs[0]!.name, jobs[0]!.data, jobs[0]!.opts);
    else await this.queue.addBulk(jobs);
  }
}
