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
import type { Io } from '../output/output';

function build(dir: string): K8sObject[] {
  try {
    return kustomizeBuild(path.resolve(dir));
  } catch (error) {
    throw CliError.usage((error as Error).message);
  }
}

export function registerK8s(program: Command, io: Io): void {
  const k8s = program.command('k8s').description('Kubernetes manifests (infra/k8s): build and validate kustomizations');
  k8s
    .command('build <dir>')
    .description('print the objects a kustomization folder builds to, as YAML')
    .action((dir: string) => {
      io.out(
        build(dir)
          .map((object) => stringify(object))
          .join('---\n'),
      );
    });
  k8s
    .command('check <dirs...>')
    .description('build each kustomization and validate every object against the Kubernetes schemas')
    .action((dirs: string[]) => {
      for (const dir of dirs) {
        const objects = build(dir);
        const problems = checkManifests(objects);
        if (problems.length > 0) throw CliError.failure(`${dir}: ${problems.map((p) => `${p.object}: ${p.problem}`).join('; ')}`);
        io.out(`${dir}: ${objects.length} objects valid\n`);
      }
    });
}
