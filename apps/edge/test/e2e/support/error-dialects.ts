/**
 * The error body each family's clients expect (spec section on errors), as zod schemas, so a property
 * can say of any 4xx whether it speaks its route's dialect. Strict on the envelope, loose on nothing the
 * official SDKs read.
 */
import type { Family } from '@gateway/contracts';
import { z } from 'zod';

const Text = z.string().min(1);

const DIALECTS: Record<Family, z.ZodType> = {
  oaic: z.strictObject({ error: z.strictObject({ message: Text, type: Text, param: z.string().nullable(), code: z.string().nullable() }) }),
  msgc: z.strictObject({ type: z.literal('error'), error: z.strictObject({ type: Text, message: Text }) }),
  genc: z.strictObject({ error: z.strictObject({ code: z.number().int(), message: Text, status: z.string().regex(/^[A-Z_]+$/) }) }),
  dsc: z.strictObject({ request_id: Text, code: Text, message: Text }),
  nativemedia: z.strictObject({ code: z.number().int(), message: Text, request_id: Text }),
  music: z.strictObject({ code: z.number().int(), msg: Text, data: z.null() }),
  room: z.strictObject({ success: z.literal(false), error: z.strictObject({ code: Text, message: Text }) }),
};

/** Why `text` (an error answer with `status`) is not in `family`'s dialect, or null when it is. */
export function dialectViolation(family: Family, status: number, text: string, contentType: string | undefined): string | null {
  if (!/^application\/json\b/i.test(contentType ?? '')) return `content-type is ${JSON.stringify(contentType)}, not application/json`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `body is not JSON: ${JSON.stringify(text.slice(0, 200))}`;
  }
  const parsed = DIALECTS[family].safeParse(body);
  if (!parsed.success)
    return `body is not in the ${family} dialect (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}): ${text.slice(0, 300)}`;
  // The families that number their errors carry the HTTP status in the body as well.
  const numbered = family === 'genc' ? (body as { error: { code: number } }).error.code : family === 'music' ? (body as { code: number }).code : status;
  if (numbered !== status) return `the body's code ${numbered} differs from the HTTP status ${status}`;
  return null;
}
