// Renames one top-level field of an answer (`content` → `content_drifted`): what a vendor drifting from its
// documented shape looks like to a client, selected by the `drift` control (see controls.ts).

export function driftField(payload: Record<string, unknown>, field: string | null): Record<string, unknown> {
  if (!field || !(field in payload)) return payload;
  const drifted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) drifted[key === field ? `${field}_drifted` : key] = value;
  return drifted;
}
