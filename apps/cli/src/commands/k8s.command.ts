/**
 * `gatewayctl k8s build <dir>` prints what a kustomization builds (as `kubectl kustomize` would);
 * `gatewayctl k8s check <dir>...` builds each and validates every object against the Kubernetes schemas.
 */
import type { Command } from 'commander';
import path from 'node:path';
import { stringify } from 'yaml';
import { CliError } from '../cli-error';
import { checkManifests } from '../k8s/manifest-check';
import { kustomizeBuild, type K8sObject } from '../k8s/kustomize';
import { emit, type Io } from '../output/output';
import { withJson } from './command-context';

function build(dir: string): K8sObject[] {
  try {
    return kustomizeBuild(path.resolve(dir));
  } catch (error) {
    throw CliError.usage((error as Error).message);
  }
}

export function registerK8s(program: Command, io: Io): void {
  const k8s = program.command('k8s').description('Kubernetes manifests (infra/k8s): build and validate kustomizations');
  withJson(k8s.command('build <dir>'))
    .description('print the objects a kustomization folder builds to, as YAML (or JSON)')
    .action((dir: string, options: { json?: boolean }) => {
      const objects = build(dir);
      emit(io, options.json === true, objects, () => objects.map((object) => stringify(object).trimEnd()).join('\n---\n'));
    });
  withJson(k8s.command('check <dirs...>'))
    .description('build each kustomization and validate every object against the Kubernetes schemas')
    .action((dirs: string[], options: { json?: boolean }) => {
      const results = dirs.map((dir) => {
        const objects = build(dir);
        const problems = checkManifests(objects);
        if (problems.length > 0) throw CliError.failure(`${dir}: ${problems.map((p) => `${p.object}: ${p.problem}`).join('; ')}`);
        return { dir, objects: objects.length };
      });
      emit(io, options.json === true, results, () => results.map((r) => `${r.dir}: ${r.objects} objects valid`).join('\n'));
    });
}
