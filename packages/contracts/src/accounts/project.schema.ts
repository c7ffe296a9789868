import { z } from 'zod';
import { InputSlug } from '../inputs/input-text.schema';
import { KeyModels } from './key-models';

/** The project every tenant has; a key created without a project belongs to it. */
export const DEFAULT_PROJECT = 'default';

/** A project's name: unique within its tenant. */
export const ProjectName = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, 'lowercase letters, digits, ".", "_" or "-", at most 63');

/** A new project; its keys may use only the models of `models` (absent: every model) and none of `denyModels`. */
export const ProjectCreateRequest = z
  .object({
    tenant: InputSlug,
    name: ProjectName,
    models: KeyModels.min(1, 'name at least one model, or leave models out').optional(),
    denyModels: KeyModels.min(1, 'name at least one model, or leave denyModels out').optional(),
  })
  .strict();
export type ProjectCreateRequest = z.infer<typeof ProjectCreateRequest>;
export const ProjectListRequest = z.object({ tenant: InputSlug }).strict();
export type ProjectListRequest = z.infer<typeof ProjectListRequest>;

export const ProjectView = z.object({
  name: z.string(),
  tenant: z.string(),
  /** Keys in the project, revoked ones included. */
  keys: z.number().int().nonnegative(),
  /** The models its keys may use; empty: every model its tenant sees. */
  models: z.array(z.string()),
  /** The models its keys may not use. */
  deny_models: z.array(z.string()),
  created_at: z.string(),
});
export type ProjectView = z.infer<typeof ProjectView>;

export const ProjectListReply = z.array(ProjectView);
export type ProjectListReply = z.infer<typeof ProjectListReply>;
export const ProjectList = z.object({ data: ProjectListReply });
export type ProjectList = z.infer<typeof ProjectList>;
