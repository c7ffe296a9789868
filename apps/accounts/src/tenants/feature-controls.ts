import { DEFAULT_FEATURE_CONTROLS } from '@gateway/contracts';
import { z } from 'zod';

const StoredControls = z.record(z.string(), z.boolean());

/** The flags a tenant's requests see: every default, overridden or extended by what the tenant stores. */
export function effectiveFeatureControls(stored: unknown): Record<string, boolean> {
  const parsed = StoredControls.safeParse(stored ?? {});
  // A malformed row must not widen access: fall back to the defaults alone.
  return { ...DEFAULT_FEATURE_CONTROLS, ...(parsed.success ? parsed.data : {}) };
}

/** Only the flags the tenant stores (no defaults): what a config file is compared with. */
export function storedFeatureControls(stored: unknown): Record<string, boolean> {
  const parsed = StoredControls.safeParse(stored ?? {});
  return parsed.success ? parsed.data : {};
}
