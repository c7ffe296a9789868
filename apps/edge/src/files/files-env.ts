import { z } from 'zod';

/** Settings of the files and batches routes at the edge. */
export const EdgeFilesEnv = z.object({
  /** Largest file upload accepted (1 GiB); a larger one is a 413 naming the file. */
  FILES_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  /** Longest a files or batches call to the files service may take. */
  FILES_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
});
export type EdgeFilesEnv = z.infer<typeof EdgeFilesEnv>;

export const EDGE_FILES_ENV = Symbol('EDGE_FILES_ENV');
export const FILES_OBJECT_STORE = Symbol('FILES_OBJECT_STORE');
