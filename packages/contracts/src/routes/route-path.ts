/**
 * A console or admin route's path with its `:name` parameters filled from `fields` (each encoded), and the
 * fields it did not take: what a client sends as the query or the body.
 */
export function fillRoutePath(path: string, fields: Readonly<Record<string, unknown>>): { path: string; rest: Record<string, unknown> } {
  const rest = { ...fields };
  const filled = path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = String(rest[name] ?? '');
    delete rest[name];
    return encodeURIComponent(value);
  });
  return { path: filled, rest };
}
