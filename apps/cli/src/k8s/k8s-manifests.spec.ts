import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { findExecutable } from '../stack/infra-start';
import { REPO_ROOT } from '../stack/stack-options';
import { checkManifests } from './manifest-check';
import { kustomizeBuild, strategicMerge, type K8sObject } from './kustomize';

const OVERLAYS = ['dev', 'prod', 'ha'].map((name) => path.join(REPO_ROOT, 'infra', 'k8s', 'overlays', name));
const ROLES = ['edge', 'accounts', 'chat', 'media-api', 'media-worker', 'music-api', 'music-worker', 'files-api', 'files-worker'];

type Container = {
  name: string;
  image: string;
  env?: unknown[];
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
  resources?: { requests?: object; limits?: object };
};

function containersOf(object: K8sObject): Container[] {
  return (object.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers;
}

const byId = (objects: K8sObject[]) => new Map(objects.map((o) => [`${o.kind}/${o.metadata.name}`, o]));

describe.each(OVERLAYS)('the kustomize overlay %s', (overlay) => {
  const objects = kustomizeBuild(overlay);
  const index = byId(objects);

  it('builds to objects that all match the Kubernetes schemas', () => {
    expect(objects.length).toBeGreaterThan(25);
    expect(checkManifests(objects)).toEqual([]);
    expect(new Set(objects.map((o) => o.metadata.namespace)).size).toBe(1);
  });

  it('runs every role as its own Deployment with probes on the ops endpoints, resources and a disruption budget', () => {
    for (const role of ROLES) {
      const deployment = index.get(`Deployment/gateway-${role}`);
      expect({ role, found: deployment !== undefined }).toEqual({ role, found: true });
      const [container] = containersOf(deployment!);
      expect(container!.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(container!.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(container!.resources?.requests).toBeDefined();
      expect(container!.resources?.limits).toBeDefined();
      expect(index.has(`PodDisruptionBudget/gateway-${role}`)).toBe(true);
    }
  });

  it('autoscales edge and chat on CPU, media and music workers on their queues, and migrates with a Job', () => {
    for (const name of ['gateway-edge', 'gateway-chat']) {
      const hpa = index.get(`HorizontalPodAutoscaler/${name}`)!;
      expect(hpa.spec).toMatchObject({ scaleTargetRef: { kind: 'Deployment', name }, metrics: [{ resource: { name: 'cpu' } }] });
    }
    for (const name of ['gateway-media-worker', 'gateway-music-worker']) {
      expect(index.get(`ScaledObject/${name}`)!.spec).toMatchObject({ scaleTargetRef: { name }, triggers: [{ type: 'redis' }] });
    }
    expect(containersOf(index.get('Job/gateway-migrate')!)[0]).toMatchObject({ args: ['migrate'] });
  });

  it('lets only the edge take traffic from anywhere', () => {
    const open = objects
      .filter((o) => o.kind === 'NetworkPolicy')
      .filter((o) => ((o.spec as { ingress?: Array<{ from?: unknown }> }).ingress ?? []).some((rule) => rule.from === undefined));
    expect(open.map((o) => (o.spec as { podSelector: { matchLabels: Record<string, string> } }).podSelector.matchLabels)).toEqual([
      { 'app.kubernetes.io/name': 'gateway-edge' },
    ]);
  });

  const kubectl = findExecutable('kubectl');
  // Where kubectl is installed, its own kustomize is the reference for the subset built here.
  if (kubectl) {
    it('builds the same objects as kubectl kustomize', () => {
      const theirs = parseAllDocuments(execFileSync(kubectl!, ['kustomize', overlay], { encoding: 'utf8' })).map((doc) => doc.toJS() as K8sObject);
      const sort = (list: K8sObject[]) => [...list].sort((a, b) => `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`));
      expect(sort(objects)).toEqual(sort(theirs));
    });
  }
});

describe('the ha overlay', () => {
  const objects = kustomizeBuild(path.join(REPO_ROOT, 'infra', 'k8s', 'overlays', 'ha'));
  const index = byId(objects);
  const spec = (id: string) => index.get(id)?.spec as Record<string, unknown> | undefined;
  const configMap = (name: string) => (index.get(`ConfigMap/${name}`) as { data?: Record<string, string> } | undefined)?.data ?? {};

  it('runs NATS as three JetStream nodes routed to one another, Redis as a primary with two replicas and three Sentinels', () => {
    expect(spec('StatefulSet/nats')).toMatchObject({ replicas: 3, serviceName: 'nats-headless' });
    const natsConfig = configMap('nats-config')['nats.conf']!;
    for (const node of [0, 1, 2]) expect(natsConfig).toContain(`nats-route://nats-${node}.nats-headless:6222`);
    expect(natsConfig).toMatch(/jetstream \{/);
    expect(spec('StatefulSet/redis')).toMatchObject({ replicas: 3 });
    expect(spec('StatefulSet/redis-sentinel')).toMatchObject({ replicas: 3 });
    const redisConfig = configMap('redis-config');
    expect(redisConfig['start-sentinel.sh']).toMatch(/sentinel monitor gateway .+ 6379 2/);
    expect(redisConfig['redis.conf']).toMatch(/appendfsync everysec/);
  });

  it('runs PostgreSQL as a CloudNativePG Cluster of three with a synchronous replica, the gateway on its read-write service', () => {
    expect(index.get('Cluster/gateway-postgres')).toMatchObject({ apiVersion: 'postgresql.cnpg.io/v1' });
    expect(spec('Cluster/gateway-postgres')).toMatchObject({
      instances: 3,
      minSyncReplicas: 1,
      enablePDB: true,
      bootstrap: { initdb: { database: 'gateway' } },
    });
    const databaseUrl = { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'gateway-postgres-app', key: 'uri' } } };
    for (const id of [
      'Deployment/gateway-accounts',
      'Deployment/gateway-chat',
      'Deployment/gateway-files-api',
      'Deployment/gateway-files-worker',
      'Job/gateway-migrate',
    ]) {
      expect({ id, env: containersOf(index.get(id)!)[0]!.env }).toEqual({ id, env: expect.arrayContaining([databaseUrl]) });
    }
  });

  it('keeps a quorum of each through voluntary disruptions and points every role at all of them', () => {
    expect(spec('PodDisruptionBudget/nats')).toMatchObject({ minAvailable: 2 });
    expect(spec('PodDisruptionBudget/redis')).toMatchObject({ maxUnavailable: 1 });
    expect(spec('PodDisruptionBudget/redis-sentinel')).toMatchObject({ minAvailable: 2 });
    const config = configMap('gateway-config');
    expect(config.NATS_URL!.split(',')).toHaveLength(3);
    expect(config.NATS_STREAM_REPLICAS).toBe('3');
    expect(config.REDIS_SENTINELS!.split(',')).toHaveLength(3);
    expect(config.REDIS_SENTINEL_NAME).toBe('gateway');
  });

  it("lets the gateway's pods, and only they, reach NATS and Redis", () => {
    const gatewayPods = objects
      .filter((o) => o.kind === 'Deployment')
      .map((o) => (o.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels);
    for (const labels of gatewayPods) expect(labels['app.kubernetes.io/part-of']).toBe('model-gateway');
    const redis = spec('NetworkPolicy/redis-ingress') as { ingress: Array<{ from: Array<{ podSelector: { matchLabels: object } }> }> };
    expect(redis.ingress.flatMap((rule) => rule.from.map((peer) => peer.podSelector.matchLabels))).toEqual([
      { 'app.kubernetes.io/part-of': 'model-gateway' },
      { 'app.kubernetes.io/component': 'wallet-store' },
    ]);
  });
});

describe('strategicMerge and checkManifests', () => {
  it('merges containers by name and env by name (the patch first, as kubectl orders them), replaces other lists, removes null', () => {
    const base = { spec: { containers: [{ name: 'a', image: 'x', env: [{ name: 'A', value: '1' }], args: ['1'] }], keep: 1, drop: 2 } };
    const patch = { spec: { containers: [{ name: 'a', env: [{ name: 'B', value: '2' }], args: ['2'] }], drop: null } };
    expect(strategicMerge(base, patch)).toEqual({
      spec: {
        containers: [
          {
            name: 'a',
            image: 'x',
            env: [
              { name: 'B', value: '2' },
              { name: 'A', value: '1' },
            ],
            args: ['2'],
          },
        ],
        keep: 1,
      },
    });
  });

  it('reports an object that does not match its schema, and an unknown kind', () => {
    const bad = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'x' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 'http' }] }] } },
      },
    } as unknown as K8sObject;
    const unknown = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } } as K8sObject;
    const problems = checkManifests([bad, unknown]);
    expect(problems).toHaveLength(2);
    expect(problems[0]!.problem).toContain('containerPort must be integer');
    expect(problems[1]!.problem).toBe('unknown kind example.com/v1 Widget');
  });
});
