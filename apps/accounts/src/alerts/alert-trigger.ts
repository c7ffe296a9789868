import type { LedgerEvent } from '@gateway/billing';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AlertEvaluator, nothingTouched, type Touched } from './alert-evaluator';

/** Rounds start at most this often: under load many batches fold into one round, a handful of queries a second. */
const ROUND_SPACING_MS = 500;
/** One budget counter is judged at most this often (its spend is summed from the ledger); a later move waits for it. */
const COUNTER_SPACING_MS = 5000;

/**
 * Where the ledger consumer reports what each written batch touched. Evaluation runs beside the
 * consumer, one round at a time and at most one every ROUND_SPACING_MS, folding whatever arrives
 * meanwhile into the next round: the consumer never waits for it, and steady traffic costs a few
 * evaluations a second, not one per batch; a busy budget is summed at most every COUNTER_SPACING_MS.
 */
@Injectable()
export class AlertTrigger implements OnApplicationShutdown {
  private readonly logger = new Logger(AlertTrigger.name);
  private pending: Touched = nothingTouched();
  private running: Promise<void> | null = null;
  private stopping = false;
  /** When each budget counter was last judged. */
  private readonly judged = new Map<string, number>();

  constructor(@Inject(AlertEvaluator) private readonly evaluator: AlertEvaluator) {}

  /** Wallet events just written to the ledger. */
  notice(events: readonly LedgerEvent[]): void {
    for (const event of events) {
      for (const counter of event.budgets?.split(',') ?? []) if (counter) this.pending.counters.add(counter);
      (event.pool === 'balance' ? this.pending.balanceTenants : this.pending.quotaTenants).add(event.tenant);
    }
    this.start();
  }

  /** A balance moved outside the stream (a top-up): balance.low may re-arm. */
  noticeBalance(tenantId: string): void {
    this.pending.balanceTenants.add(tenantId);
    this.start();
  }

  /** Resolves once everything noticed so far has been evaluated. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.settled();
  }

  private start(): void {
    this.running ??= this.run().finally(() => (this.running = null));
  }

  private async run(): Promise<void> {
    while (this.pending.counters.size + this.pending.balanceTenants.size + this.pending.quotaTenants.size > 0) {
      const started = Date.now();
      const round = this.pending;
      this.pending = nothingTouched();
      this.deferRecent(round, started);
      // What a failed round touched is judged again the next time it moves: thresholds are read from the live state.
      await this.evaluator.evaluate(round).catch((error: Error) => this.logger.warn(`alert evaluation failed: ${error.message}`));
      const wait = ROUND_SPACING_MS - (Date.now() - started);
      if (wait > 0 && !this.stopping) await sleep(wait);
    }
  }

  /** Moves the counters judged within COUNTER_SPACING_MS to the next round (all of them are judged when stopping). */
  private deferRecent(round: Touched, now: number): void {
    for (const counter of [...round.counters]) {
      const last = this.judged.get(counter);
      if (!this.stopping && last !== undefined && now - last < COUNTER_SPACING_MS) {
        round.counters.delete(counter);
        this.pending.counters.add(counter);
      } else {
        this.judged.set(counter, now);
      }
    }
    if (this.judged.size > 100_000) for (const [counter, at] of this.judged) if (now - at >= COUNTER_SPACING_MS) this.judged.delete(counter);
  }
}
