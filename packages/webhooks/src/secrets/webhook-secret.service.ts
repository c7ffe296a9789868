import { generateWebhookSecret } from '../signing/webhook-secret';
import type { WebhookRepository } from '../store/webhook.repository';

/** Per-tenant signing secrets: created on first use, rotated by the operator with a grace window for the old one. */
export class WebhookSecretService {
  constructor(
    private readonly repository: WebhookRepository,
    private readonly graceSeconds: number,
  ) {}

  /** The secrets that sign a delivery now, newest first. */
  async signingSecrets(tenantId: string): Promise<string[]> {
    const now = new Date();
    let rows = await this.repository.signingSecrets(tenantId, now);
    if (rows.length === 0) {
      await this.repository.ensureSecret(tenantId, generateWebhookSecret());
      rows = await this.repository.signingSecrets(tenantId, now);
    }
    return rows.map((row) => row.secret);
  }

  /** A new current secret, returned once; the one it replaces signs beside it for the grace window. */
  async rotate(tenantId: string): Promise<{ secret: string; createdAt: Date; previousValidUntil: Date | null }> {
    const secret = generateWebhookSecret();
    const { createdAt, previousValidUntil } = await this.repository.rotate(tenantId, secret, new Date(Date.now() + this.graceSeconds * 1000));
    return { secret, createdAt, previousValidUntil };
  }
}
