/**
 * The operator-facing files outside the code: docker-compose parses and wires the observability profile,
 * Prometheus scrapes every app and loads the alert rules, and every alert and dashboard query names only
 * series the gateway exports.
 */
import { gatewayMetrics } from '@gateway/platform';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from './stack-options';

const read = (...parts: string[]) => readFileSync(path.join(REPO_ROOT, ...parts), 'utf8');
/** Series of the edge's own registry (apps/edge/src/ops/http-metrics.ts) beside the shared catalog. */
const EDGE_SERIES = [
  'gateway_requests_total',
  'gateway_request_duration_seconds',
  'gateway_time_to_first_token_seconds',
  'gateway_dead_letters',
  'gateway_http_requests_total',
];

function exported(): Set<string> {
  const names = Object.values(gatewayMetrics).map((metric) => (metric as unknown as { name: string }).name);
  return new Set([...names, ...EDGE_SERIES]);
}

function seriesIn(expr: string): string[] {
  return [...expr.matchAll(/\b(gateway_[a-z_]+?)(?:_bucket|_count|_sum)?\b(?=[{[\s)])/g)].map((m) => m[1]!);
}

describe('deployment files', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { profiles?: string[]; environment?: Record<string, string> }>;
  };

  it('docker-compose parses, and Prometheus and Grafana run under the observability profile', () => {
    expect(compose.services.prometheus!.profiles).toEqual(['observability']);
    expect(compose.services.grafana!.profiles).toEqual(['observability']);
    expect(compose.services.chat!.environment!.METRICS_PORT).toBe('9464');
  });

  it('the HA override runs NATS as three clustered nodes and Redis with a replica and three Sentinels; its env file points the apps at both', () => {
    const ha = parse(read('docker-compose.ha.yml'), { merge: true }) as { services: Record<string, { command: string[]; volumes: string[] }> };
    const natsNodes = Object.entries(ha.services).filter(([name]) => name.startsWith('nats'));
    expect(natsNodes.map(([name]) => name).sort()).toEqual(['nats', 'nats-2', 'nats-3']);
    for (const [name, node] of natsNodes) {
      expect(node.command).toEqual(['-c', '/etc/nats/nats-cluster.conf', '--server_name', name === 'nats' ? 'nats-1' : name]);
      expect(node.volumes[0]).toBe('./infra/nats/nats-cluster.conf:/etc/nats/nats-cluster.conf:ro');
    }
    const env = Object.fromEntries(
      read('infra', 'ha.env')
        .trim()
        .split('\n')
        .map((line) => line.split('=') as [string, string]),
    );
    expect(env.NATS_URL!.split(',')).toEqual(['nats://nats:4222', 'nats://nats-2:4222', 'nats://nats-3:4222']);
    expect(env.NATS_STREAM_REPLICAS).toBe('3');
    expect(compose.services.chat!.environment!.NATS_URL).toBe('${NATS_URL:-nats://nats:4222}');
    // Redis: the primary, a replica of it and three Sentinels watching it, which the apps ask for the primary.
    expect(ha.services['redis-replica']!.command).toEqual(expect.arrayContaining(['--replicaof', 'redis', '6379']));
    const sentinels = Object.keys(ha.services).filter((name) => name.startsWith('redis-sentinel-'));
    expect(sentinels.sort()).toEqual(['redis-sentinel-1', 'redis-sentinel-2', 'redis-sentinel-3']);
    for (const name of sentinels) expect(ha.services[name]!.command.join(' ')).toContain("'sentinel monitor gateway redis 6379 2'");
    expect(env.REDIS_SENTINELS!.split(',')).toEqual(sentinels.map((name) => `${name}:26379`));
    expect(env.REDIS_SENTINEL_NAME).toBe('gateway');
    expect(compose.services.chat!.environment!.REDIS_SENTINELS).toBe('${REDIS_SENTINELS:-}');
    const conf = read('infra', 'nats', 'nats-cluster.conf');
    for (const host of ['nats', 'nats-2', 'nats-3']) expect(conf).toContain(`nats-route://${host}:6222`);
    const checked = spawnSync('/usr/sbin/nats-server', ['-c', path.join(REPO_ROOT, 'infra', 'nats', 'nats-cluster.conf'), '--server_name', 'check', '-t'], {
      encoding: 'utf8',
    });
    expect({ status: checked.status, said: `${checked.stdout}${checked.stderr}`.trim() }).toEqual({ status: 0, said: expect.stringContaining('is valid') });
  });

  it('Prometheus scrapes every app of the compose file', () => {
    const config = parse(read('infra', 'observability', 'prometheus.yml')) as { scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }> };
    const hosts = config.scrape_configs.flatMap((job) => job.static_configs.flatMap((s) => s.targets.map((t) => t.split(':')[0])));
    expect(hosts.sort()).toEqual(['accounts', 'chat', 'edge', 'files', 'files-worker', 'media', 'media-worker', 'music', 'music-worker']);
    for (const host of hosts) expect(compose.services[host!]).toBeDefined();
  });

  it('alert rules cover error rate, TTFT p99, consumer lag, a stalled usage fold, queue age and dead letters, on exported series', () => {
    const rules = (
      parse(read('infra', 'observability', 'alert-rules.yml')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> }
    ).groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'GatewayHighErrorRate',
        'GatewayTimeToFirstTokenP99High',
        'GatewayConsumerLag',
        'GatewayUsageFoldStale',
        'GatewayQueueOldestJobAge',
        'GatewayDeadLetters',
      ]),
    );
    const known = exported();
    for (const rule of rules)
      for (const series of seriesIn(rule.expr)) expect({ alert: rule.alert, series, known: known.has(series) }).toMatchObject({ known: true });
  });

  it('the Grafana dashboard queries exported series only', () => {
    const dashboard = JSON.parse(read('infra', 'observability', 'grafana', 'dashboards', 'gateway.json')) as {
      panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
    };
    expect(dashboard.panels.length).toBeGreaterThan(10);
    const known = exported();
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets) {
        const series = seriesIn(expr);
        expect({ panel: panel.title, found: series.length > 0 }).toEqual({ panel: panel.title, found: true });
        for (const name of series) expect({ panel: panel.title, name, known: known.has(name) }).toMatchObject({ known: true });
      }
    }
  });
});
