/**
 * The gateway's Prometheus series, defined once for every app. Each process has one registry; an app
 * fills the series of what it does (the edge requests and first tokens, chat tokens and upstreams,
 * accounts its consumer lag, task services their queues) and serves the registry on its metrics port.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const metricsRegistry = new Registry();
const registers = [metricsRegistry];

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const gatewayMetrics = {
  /** Tenant is '' unless METRICS_TENANT_LABEL=true (one series per tenant otherwise). */
  tokens: new Counter({
    name: 'gateway_tokens_total',
    help: 'Tokens counted for answered requests, by model and direction (input, output)',
    labelNames: ['model', 'direction', 'tenant'] as const,
    registers,
  }),
  cost: new Counter({
    name: 'gateway_cost_micros_total',
    help: 'Charged cost in micro-units of the balance currency, by model and usage kind (chat, batch_line, media_task, ...)',
    labelNames: ['model', 'tenant', 'kind'] as const,
    registers,
  }),
  usageRecords: new Counter({
    name: 'gateway_usage_records_total',
    help: 'Usage records written, by usage kind (chat, batch_line, media_task, music_task, assistants_run, ...)',
    labelNames: ['kind', 'tenant'] as const,
    registers,
  }),
  upstreamDuration: new Histogram({
    name: 'gateway_upstream_duration_seconds',
    help: 'Time from sending an upstream request to its response headers, by channel',
    labelNames: ['channel', 'system'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  }),
  upstreamErrors: new Counter({
    name: 'gateway_upstream_errors_total',
    help: 'Upstream calls that failed (connection error, timeout or non-2xx status), by channel',
    labelNames: ['channel', 'status'] as const,
    registers,
  }),
  upstreamThrottles: new Counter({
    name: 'gateway_upstream_throttled_total',
    help: "Upstream refusals that stand for a rate limit or a spent quota (a 429, Bedrock's ThrottlingException or ServiceQuotaExceededException), by channel",
    labelNames: ['channel'] as const,
    registers,
  }),
  upstreamFailovers: new Counter({
    name: 'gateway_upstream_failovers_total',
    help: 'Requests moved on from a channel to the next one, by the channel that failed',
    labelNames: ['channel'] as const,
    registers,
  }),
  responseCacheLookups: new Counter({
    name: 'gateway_response_cache_requests_total',
    help: 'Chat requests of tenants with the response cache on, by outcome (hit, miss, bypass) and model',
    labelNames: ['outcome', 'model', 'tenant'] as const,
    registers,
  }),
  responseCacheBytes: new Gauge({
    name: 'gateway_response_cache_bytes',
    help: "Bytes the tenants' cached answers hold in Redis, as of each tenant's last store in this process (all tenants summed when unlabelled)",
    labelNames: ['tenant'] as const,
    registers,
  }),
  responseCacheEvictions: new Counter({
    name: 'gateway_response_cache_evictions_total',
    help: 'Cached answers evicted to keep a tenant under its byte cap',
    labelNames: ['tenant'] as const,
    registers,
  }),
  holdsOpen: new Gauge({ name: 'gateway_billing_holds_open', help: 'Billing holds taken and not yet ended', registers }),
  usageFoldedAt: new Gauge({
    name: 'gateway_usage_fold_last_success_timestamp_seconds',
    help: 'When the usage fold last committed (or found nothing new) on this accounts replica, Unix seconds',
    registers,
  }),
  usageFoldedRows: new Counter({ name: 'gateway_usage_fold_rows_total', help: 'Rollup rows the usage fold added to or created', registers }),
  refusals: new Counter({
    name: 'gateway_refusals_total',
    help: 'Requests refused for quota or rate limits, by reason (insufficient_quota, rate_limited)',
    labelNames: ['reason'] as const,
    registers,
  }),
  natsTimeouts: new Counter({
    name: 'gateway_nats_request_timeouts_total',
    help: 'NATS requests that got no answer in time, by subject',
    labelNames: ['subject'] as const,
    registers,
  }),
  consumerLag: new Gauge({
    name: 'gateway_consumer_lag',
    help: 'Records a durable JetStream consumer has yet to take, by consumer',
    labelNames: ['consumer'] as const,
    registers,
  }),
  deadLettered: new Counter({
    name: 'gateway_dead_lettered_total',
    help: 'Records this process moved to the dead-letter stream, by consumer',
    labelNames: ['consumer'] as const,
    registers,
  }),
  queueDepth: new Gauge({
    name: 'gateway_queue_depth',
    help: 'Jobs in a BullMQ queue, by queue and state (waiting, delayed, active)',
    labelNames: ['queue', 'state'] as const,
    registers,
  }),
  queueOldestAge: new Gauge({
    name: 'gateway_queue_oldest_job_age_seconds',
    help: 'Age of the oldest waiting job, by queue',
    labelNames: ['queue'] as const,
    registers,
  }),
  queueFailures: new Counter({
    name: 'gateway_queue_job_failures_total',
    help: 'Job attempts that failed, by queue',
    labelNames: ['queue'] as const,
    registers,
  }),
  webhookDeliveries: new Counter({
    name: 'gateway_webhook_deliveries_total',
    help: 'Outbound webhook delivery attempts, by outcome (delivered, retrying, dead)',
    labelNames: ['outcome'] as const,
    registers,
  }),
  alertsSent: new Counter({
    name: 'gateway_alerts_sent_total',
    help: 'Account alerts fired (budget.threshold_reached, balance.low, quota.low), by type; recorded once each',
    labelNames: ['type'] as const,
    registers,
  }),
  /** Per project budget only: key budgets would make one series per key. */
  budgetUsedRatio: new Gauge({
    name: 'gateway_budget_used_ratio',
    help: "A project budget's use in its current period (charged and held) over its amount, when last evaluated",
    labelNames: ['tenant', 'project'] as const,
    registers,
  }),
};

let defaultsCollected = false;

/** Process series (CPU, memory, event loop, GC) into the registry, once. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 50 });
}

/** Gauges read when scraped rather than kept current: a read that fails leaves the last value. */
export function onScrape(read: () => Promise<void>): void {
  scrapeReads.push(read);
}
const scrapeReads: Array<() => Promise<void>> = [];

/** The registry's text, after the reads registered with `onScrape`. */
export async function scrapeMetrics(): Promise<string> {
  await Promise.all(scrapeReads.map((read) => read().catch(() => undefined)));
  return metricsRegistry.metrics();
}

let tenantLabel = false;

/** METRICS_TENANT_LABEL: whether token and cost series carry the tenant. */
export function setTenantLabel(enabled: boolean): void {
  tenantLabel = enabled;
}

export function tenantLabelOf(tenantId: string): string {
  return tenantLabel ? tenantId : '';
}
