// The URL policy for zod schemas: a field type, an issue for hand-written checks, and the allowlist setting.
import { z } from 'zod';
import { normaliseAllowHost, urlProblem, type UrlPolicyOptions } from './url-policy';

/** A string field holding a URL the policy accepts; a refused one is reported at the field with the reason. */
export function publicUrl(options: UrlPolicyOptions = {}) {
  return z.string().superRefine((url, ctx) => {
    const problem = urlProblem(url, options);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}

/** For checks written by hand (inside a superRefine): reports a refused URL at `path`, relative to the refined value. */
export function addUrlIssue(ctx: z.RefinementCtx, url: string, path: PropertyKey[], options: UrlPolicyOptions = {}): void {
  const problem = urlProblem(url, options);
  if (problem) ctx.addIssue({ code: 'custom', path, message: problem });
}

/** `URL_POLICY_ALLOW_HOSTS`: comma-separated hosts (exact after normalisation, or `*.suffix`) the policy lets through. */
export const UrlPolicyAllowHosts = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    for (const entry of entries) {
      try {
        normaliseAllowHost(entry);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
      }
    }
    return entries;
  });
