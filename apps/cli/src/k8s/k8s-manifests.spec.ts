import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { findExecutable } from '../stack/infra-start';
import { REPO_ROOT } from '../stack/stack-options';
import { checkManifests } from './manifest-check';
import { kustomizeBuild, strategicMerge, type K8sObject } from './kustomize';

const OVERLAYS = ['dev', 'prod'].map((name) => path.join(REPO_ROOT, 'infra', 'k8s', 'overlays', name));
const ROLES = ['edge', 'accounts', 'chat', 'media-api', 'media-worker', 'music-api', 'music-worker', 'files-api', 'files-worker'];

type Container = {
  name: string;
  image: string;
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

describe('strategicMerge and checkManifests', () => {
  it('merges containers by name and env by name, replaces other lists, removes null', () => {
    const base = { spec: { containers: [{ name: 'a', image: 'x', env: [{ name: 'A', value: '1' }], args: ['1'] }], keep: 1, drop: 2 } };
    const patch = { spec: { containers: [{ name: 'a', env: [{ name: 'B', value: '2' }], args: ['2'] }], drop: null } };
    expect(strategicMerge(base, patch)).toEqual({
      spec: {
        containers: [
          {
            name: 'a',
            image: 'x',
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
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
