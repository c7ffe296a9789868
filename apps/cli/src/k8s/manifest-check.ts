/**
 * Validates built manifests against the Kubernetes API schemas (kubernetes-models; KEDA's for
 * ScaledObject, CloudNativePG's for its Cluster): every object must be of a known apiVersion and kind and
 * match its schema.
 */
import { createRequire } from 'node:module';
import type { K8sObject } from './kustomize';

const load = createRequire(__filename);

interface Model {
  validate(): void;
}
type ModelClass = new (data: unknown) => Model;

function modelPath(apiVersion: string, kind: string): string {
  if (apiVersion.startsWith('keda.sh/')) return `@kubernetes-models/keda/${apiVersion}/${kind}`;
  if (apiVersion.startsWith('postgresql.cnpg.io/')) return `@kubernetes-models/cloudnative-pg/${apiVersion}/${kind}`;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

function modelOf(apiVersion: string, kind: string): ModelClass | undefined {
  try {
    // The models are one CommonJS module per kind: only the kinds in use are loaded.
    const module = load(modelPath(apiVersion, kind)) as Record<string, ModelClass>;
    return module[kind];
  } catch {
    return undefined;
  }
}

export interface ManifestProblem {
  object: string;
  problem: string;
}

export function checkManifests(objects: readonly K8sObject[]): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const seen = new Set<string>();
  for (const object of objects) {
    const id = `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    if (seen.has(id)) problems.push({ object: id, problem: 'defined twice' });
    seen.add(id);
    const Model = modelOf(object.apiVersion, object.kind);
    if (!Model) {
      problems.push({ object: id, problem: `unknown kind ${object.apiVersion} ${object.kind}` });
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      problems.push({ object: id, problem: (error as Error).message });
    }
  }
  return problems;
}
