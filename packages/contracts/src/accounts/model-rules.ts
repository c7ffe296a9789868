// The model rules a request passes: its key's allow- and deny-lists, then its project's. One reading at
// every place a model is routed or listed, each refusal naming the rule that refused.
import { z } from 'zod';
import { KeyModels, keyAllowsModel, matchingModelEntry } from './key-models';

/** A project's model lists as its keys carry them: an allow-list (empty: every model) and a deny-list. */
export const ProjectModelRules = z.object({
  name: z.string().min(1),
  models: KeyModels.default([]),
  denyModels: KeyModels.default([]),
});
export type ProjectModelRules = z.infer<typeof ProjectModelRules>;

/** What a caller carries of the rules: each list absent or empty when it does not restrict. */
export interface ModelRules {
  models?: readonly string[];
  denyModels?: readonly string[];
  project?: { name: string; models?: readonly string[]; denyModels?: readonly string[] };
}

/** Why `modelId` is refused under these rules, naming the rule, or null when every list admits it. */
export function modelRefusal(rules: ModelRules, modelId: string): string | null {
  if (!keyAllowsModel(rules.models, modelId)) return `This API key may not use the model '${modelId}': its model list is ${rules.models!.join(', ')}.`;
  const keyDenial = matchingModelEntry(rules.denyModels, modelId);
  if (keyDenial !== undefined) return `The model '${modelId}' is denied by this API key's deny-list (${keyDenial}).`;
  const project = rules.project;
  if (!project) return null;
  if (!keyAllowsModel(project.models, modelId)) {
    return `The model '${modelId}' is not allowed for this API key: its project "${project.name}" allows only ${project.models!.join(', ')}.`;
  }
  const projectDenial = matchingModelEntry(project.denyModels, modelId);
  if (projectDenial !== undefined) return `The model '${modelId}' is denied by the deny-list of this API key's project "${project.name}" (${projectDenial}).`;
  return null;
}

/** Whether the rules restrict models at all: without any list, every model the tenant sees is usable. */
export function restrictsModels(rules: ModelRules): boolean {
  const { project } = rules;
  return [rules.models, rules.denyModels, project?.models, project?.denyModels].some((list) => list !== undefined && list.length > 0);
}
