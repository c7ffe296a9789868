/**
 * Subjects of the tenant console's data pages: usage (answered by accounts with the same aggregation
 * `gatewayctl usage` uses), tasks (each kind by the service that owns it), webhook deliveries (by the
 * webhook service) and per-key limits.
 */
export const CONSOLE_DATA_SUBJECTS = {
  usage: {
    overview: 'accounts.console.usage.overview',
    summary: 'accounts.console.usage.summary',
    records: 'accounts.console.usage.records',
    record: 'accounts.console.usage.record',
  },
  /** What the ledger held, charged and gave back for billing request ids (a task's hold). */
  charges: 'accounts.console.charges',
  keyLimits: {
    show: 'accounts.console.keys.limits.show',
    set: 'accounts.console.keys.limits.set',
  },
  tasks: {
    media: 'media.console.tasks.list',
    music: 'music.console.tasks.list',
    batch: 'files.console.batches.list',
  },
  webhooks: {
    deliveries: 'music.webhooks.console.deliveries',
    redeliver: 'music.webhooks.console.redeliver',
  },
} as const;
