/** The group of usage whose key no longer names a project (it cannot happen while keys are kept; said rather than dropped). */
export const UNKNOWN_PROJECT_GROUP = '(unknown)';

/** SQL that names the project of a usage row's key: a key belongs to one project for good, so its usage is that project's. */
export function projectGroupSql(keyColumn: string): string {
  return `coalesce((SELECT p.name FROM api_keys k JOIN projects p ON p.id = k.project_id WHERE k.id = ${keyColumn}), '${UNKNOWN_PROJECT_GROUP}')`;
}
