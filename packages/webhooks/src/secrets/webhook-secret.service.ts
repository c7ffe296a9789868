import { SUBJECTS, WebhookSecretRotatedEvent } from '@gateway/contracts';
import type { NatsBus } from '@gateway/platform';
import { generateWebhookSecret } from '../signing/webhook-secret';
import type { WebhookRepository } from '../store/webhook.repository';

/**
 * How long a process keeps a tenant's signing secrets before reading them again. A rotation is broadcast,
 * so every process drops them at once; the cache's age only bounds a broadcast that was lost.
 */
const CACHE_MS = 5_000;

/** The broadcast half of the bus: rotations announced to every process of the service. */
export type RotationBus = Pick<NatsBus, 'publish' | 'subscribe'>;

/** Per-tenant signing secrets: created on first use, rotated by the operator with a grace window for the old one. */
export class WebhookSecretService {
  private readonly cache = new Map<string, { secrets: string[]; until: number }>();
  /** Loads under way: a burst of deliveries for one tenant reads (and on first use creates) its secret once. */
  private readonly loading = new Map<string, Promise<string[]>>();
  /** Bumped by every rotation seen: a load begun before it does not cache what it read. */
  private generation = 0;

  constructor(
    private readonly repository: WebhookRepository,
    private readonly graceSeconds: number,
    private readonly bus: RotationBus | null = null,
  ) {
    bus?.subscribe(SUBJECTS.music.webhooks.secretRotated, (payload) => {
      const event = WebhookSecretRotatedEvent.safeParse(payload);
      if (event.success) this.forget(event.data.tenantId);
    });
  }

  /** Drops what this process holds of the tenant's secrets: the next delivery reads them again. */
  forget(tenantId: string): void {
    this.generation++;
    this.cache.delete(tenantId);
    this.loading.delete(tenantId);
  }

  /** The secrets that sign a delivery now, newest first. */
  async signingSecrets(tenantId: string): Promise<string[]> {
    const cached = this.cache.get(tenantId);
    if (cached && cached.until > Date.now()) return cached.secrets;
    let loading = this.loading.get(tenantId);
    if (!loading) {
      const generation = this.generation;
      const started: Promise<string[]> = this.load(tenantId)
        .then((secrets) => {
          if (generation !== this.generation) return secrets;
          if (this.cache.size > 10_000) this.cache.clear();
          this.cache.set(tenantId, { secrets, until: Date.now() + CACHE_MS });
          return secrets;
        })
        .finally(() => {
          if (this.loading.get(tenantId) === started) this.loading.delete(tenantId);
        });
      loading = started;
      this.loading.set(tenantId, loading);
    }
    return loading;
  }

  private async load(tenantId: string): Promise<string[]> {
    const now = new Date();
    let rows = await this.repository.signingSecrets(tenantId, now);
    if (rows.length === 0) {
      await this.repository.ensureSecret(tenantId, generateWebhookSecret());
      rows = await this.repository.signingSecrets(tenantId, now);
    }
    return rows.map((row) => row.secret);
  }

  /**
   * A new current secret, returned once; the one it replaces signs beside it for the grace window, or,
   * with `revokePrevious`, every earlier secret (one still in its grace window too) ends now.
   */
  async rotate(tenantId: string, options: { revokePrevious?: boolean } = {}): Promise<{ secret: string; createdAt: Date; previousValidUntil: Date | null }> {
    const secret = generateWebhookSecret();
    const revoke = options.revokePrevious === true;
    const until = revoke ? new Date() : new Date(Date.now() + this.graceSeconds * 1000);
    const { createdAt, previousValidUntil } = await this.repository.rotate(tenantId, secret, until, revoke);
    this.forget(tenantId);
    const event: WebhookSecretRotatedEvent = { tenantId };
    this.bus?.publish(SUBJECTS.music.webhooks.secretRotated, event);
    return { secret, createdAt, previousValidUntil };
  }
}
