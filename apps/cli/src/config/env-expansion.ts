/**
 * `${VAR}` and `${VAR:-default}` in config values, taken from the environment. `$${` keeps a literal `${`.
 * Expansion runs on parsed string values, so a variable can never inject YAML structure.
 */
const PATTERN = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class EnvExpansionError extends Error {}

export function expandEnvString(value: string, env: NodeJS.ProcessEnv): string {
  return value.replace(PATTERN, (match, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${';
    const current = env[name!];
    if (current !== undefined && current !== '') return current;
    if (fallback !== undefined) return fallback;
    throw new EnvExpansionError(`\${${name}} is not set (set it, or write \${${name}:-default})`);
  });
}

/** Expands every string in a parsed document; errors name the path of the value at fault. */
export function expandEnvDeep(value: unknown, env: NodeJS.ProcessEnv, path = ''): unknown {
  if (typeof value === 'string') {
    try {
      return expandEnvString(value, env);
    } catch (error) {
      throw new EnvExpansionError(`${path || 'value'}: ${(error as Error).message}`);
    }
  }
  if (Array.isArray(value)) return value.map((item, i) => expandEnvDeep(item, env, `${path}[${i}]`));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandEnvDeep(item, env, path ? `${path}.${key}` : key)]));
  }
  return value;
}
