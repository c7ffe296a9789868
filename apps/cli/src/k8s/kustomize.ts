/**
 * Builds a kustomization the way `kubectl kustomize` does, for the subset the gateway's manifests use:
 * `resources` (files and folders with their own kustomization), `namespace`, `labels` (metadata only),
 * `replicas`, `images` and `patches` (strategic-merge patch files, matched by kind and name). Anything
 * else in a kustomization.yaml is refused, so a manifest change that needs more fails here, not in a cluster.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';

export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> } } & Record<
  string,
  unknown
>;

const Kustomization = z
  .object({
    apiVersion: z.literal('kustomize.config.k8s.io/v1beta1'),
    kind: z.literal('Kustomization'),
    namespace: z.string().min(1).optional(),
    resources: z.array(z.string().min(1)).default([]),
    labels: z.array(z.object({ pairs: z.record(z.string(), z.string()), includeSelectors: z.literal(false).optional() }).strict()).default([]),
    replicas: z.array(z.object({ name: z.string(), count: z.number().int().nonnegative() }).strict()).default([]),
    images: z.array(z.object({ name: z.string(), newName: z.string().optional(), newTag: z.string().optional() }).strict()).default([]),
    patches: z.array(z.object({ path: z.string().min(1) }).strict()).default([]),
  })
  .strict();

const K8sObjectShape = z.looseObject({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  metadata: z.looseObject({ name: z.string().min(1) }),
});

function readYamlObjects(file: string): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    const parsed = K8sObjectShape.safeParse(value);
    if (!parsed.success) throw new Error(`${file}: not a Kubernetes object (${parsed.error.issues[0]!.path.join('.')}: ${parsed.error.issues[0]!.message})`);
    objects.push(parsed.data as K8sObject);
  }
  return objects;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The key a strategic merge patch merges a list of objects by, as the Kubernetes schemas declare it for these lists. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
};

function mergeList(field: string, base: unknown[], patch: unknown[]): unknown[] {
  const key = MERGE_KEYS[field];
  const servicePort = field === 'ports' && patch.every((item) => isObject(item) && 'port' in item);
  const by = servicePort ? 'port' : key;
  if (!by || !base.every(isObject) || !patch.every(isObject)) return patch;
  // As kubectl orders them: the patch's items first (each merged into its namesake), then the rest of the base.
  const patched = patch.map((item) => {
    const namesake = base.find((existing) => existing[by] === item[by]);
    return namesake ? (strategicMerge(namesake, item) as Record<string, unknown>) : item;
  });
  return [...patched, ...base.filter((existing) => !patch.some((item) => item[by] === existing[by]))];
}

/** A strategic merge patch: maps merge, `null` removes, lists with a merge key merge item by item, other lists are replaced. */
export function strategicMerge(base: unknown, patch: unknown, field = ''): unknown {
  if (Array.isArray(base) && Array.isArray(patch)) return mergeList(field, base, patch);
  if (!isObject(base) || !isObject(patch)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = key in out ? strategicMerge(out[key], value, key) : value;
  }
  return out;
}

/** The pod specs of a workload: its template's, or a CronJob's job template's. */
function podSpecsOf(object: K8sObject): Record<string, unknown>[] {
  type Template = { template?: { spec?: Record<string, unknown> } };
  const spec = object.spec as (Template & { jobTemplate?: { spec?: Template } }) | undefined;
  const pod = spec?.template?.spec ?? spec?.jobTemplate?.spec?.template?.spec;
  return pod ? [pod] : [];
}

function setImages(object: K8sObject, images: z.infer<typeof Kustomization>['images']): void {
  for (const pod of podSpecsOf(object)) {
    for (const field of ['containers', 'initContainers']) {
      for (const container of (pod[field] as Array<{ image?: string }> | undefined) ?? []) {
        if (!container.image) continue;
        const [name, tag] = splitImage(container.image);
        const rule = images.find((image) => image.name === name);
        if (rule) container.image = `${rule.newName ?? name}:${rule.newTag ?? tag ?? 'latest'}`;
      }
    }
  }
}

function splitImage(image: string): [string, string | undefined] {
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  return colon > slash ? [image.slice(0, colon), image.slice(colon + 1)] : [image, undefined];
}

const clone = <T>(value: T): T => structuredClone(value);

/** The objects a kustomization folder builds to, in the order of its resources. */
export function kustomizeBuild(dir: string): K8sObject[] {
  const file = path.join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${dir}: no kustomization.yaml`);
  const raw = parseAllDocuments(readFileSync(file, 'utf8'))[0]?.toJS() as unknown;
  const parsed = Kustomization.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join('.') || 'kustomization'}: ${issue.message}`);
  }
  const k = parsed.data;
  const objects: K8sObject[] = [];
  for (const resource of k.resources) {
    const target = path.resolve(dir, resource);
    if (!existsSync(target)) throw new Error(`${file}: resource ${resource} does not exist`);
    objects.push(...(statSync(target).isDirectory() ? kustomizeBuild(target) : readYamlObjects(target).map(clone)));
  }
  const find = (kind: string, name: string, from: string) => {
    const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!found) throw new Error(`${from}: no ${kind} named ${name} to patch`);
    return found;
  };
  for (const { path: patchPath } of k.patches) {
    const patchFile = path.resolve(dir, patchPath);
    for (const patch of readYamlObjects(patchFile)) {
      const target = find(patch.kind, patch.metadata.name, patchFile);
      Object.assign(target, strategicMerge(target, patch));
    }
  }
  for (const { name, count } of k.replicas) {
    const target = objects.find((o) => o.metadata.name === name && isObject(o.spec) && 'replicas' in (o.spec as object));
    if (!target) throw new Error(`${file}: replicas names ${name}, which has no replicas field`);
    (target.spec as { replicas: number }).replicas = count;
  }
  for (const object of objects) {
    if (k.images.length) setImages(object, k.images);
    for (const { pairs } of k.labels) object.metadata.labels = { ...object.metadata.labels, ...pairs };
    if (k.namespace) object.metadata.namespace = k.namespace;
  }
  return objects;
}
