import { z } from 'zod';

/** Settings of the media relay; the storage settings come from @gateway/storage's StorageEnv. */
export const MediaEdgeEnv = z.object({
  /**
   * The origin clients reach the gateway on, for the signed result links in task answers (e.g.
   * https://api.example.com). Unset: the origin of each request (Host, or X-Forwarded-Host/Proto from a trusted proxy).
   */
  PUBLIC_BASE_URL: z.url().optional(),
  /** Largest body of the unauthenticated vendor callback POST /media/callbacks/{token} (the body is not read). */
  MEDIA_CALLBACK_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  /** Longest a create call may take end to end (it waits for the upstream's accept). */
  MEDIA_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
});
export type MediaEdgeEnv = z.infer<typeof MediaEdgeEnv>;

export const MEDIA_EDGE_ENV = Symbol('MEDIA_EDGE_ENV');
export const MEDIA_OBJECT_STORE = Symbol('MEDIA_OBJECT_STORE');
