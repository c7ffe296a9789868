/**
 * Converts a contract path (`/oaic/v1/files/{file_id}`) to a find-my-way path (`/oaic/v1/files/:file_id`).
 * A literal colon is written `::`; a parameter followed by more text in the same segment
 * (`{model}:generateContent`) gets a regex so it stops at the colon instead of swallowing the suffix.
 */
export function toFastifyPath(contractPath: string): string {
  const escaped = contractPath.replace(/:/g, '::');
  return escaped.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}(?=([^/]?))/g, (_match, name: string, next: string) => (next === '' ? `:${name}` : `:${name}(^[^/:]+)`));
}

/** Names of the parameters of a contract path, in order. */
export function pathParameterNames(contractPath: string): string[] {
  return [...contractPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}
