import path from 'node:path';
import { z } from 'zod';
import { LocalObjectStore } from './local-object-store';
import type { ObjectStore } from './object-store';
import { S3_DEFAULT_PART_SIZE, S3_MIN_PART_SIZE, S3ObjectStore } from './s3-object-store';

/** Local folder unless S3_ENDPOINT is set; S3 credentials have no defaults. */
export const StorageEnv = z
  .object({
    STORAGE_DIR: z.string().default(path.resolve(process.cwd(), '.data/objects')),
    S3_ENDPOINT: z.url().optional(),
    S3_ACCESS_KEY: z.string().min(1).optional(),
    S3_SECRET_KEY: z.string().min(1).optional(),
    S3_BUCKET: z.string().min(3).default('gateway'),
    S3_REGION: z.string().default('us-east-1'),
    /** Bytes per part of a multipart upload, at least 5 MiB: what one upload holds in memory at a time. */
    S3_PART_SIZE: z.coerce.number().int().min(S3_MIN_PART_SIZE, 'at least 5242880 (5 MiB), the smallest part S3 accepts').default(S3_DEFAULT_PART_SIZE),
  })
  .superRefine((env, ctx) => {
    if (!env.S3_ENDPOINT) return;
    for (const name of ['S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'required when S3_ENDPOINT is set' });
    }
  });
export type StorageEnv = z.infer<typeof StorageEnv>;

export function createObjectStore(env: StorageEnv): ObjectStore {
  if (!env.S3_ENDPOINT) return new LocalObjectStore(env.STORAGE_DIR);
  return new S3ObjectStore({
    endpoint: env.S3_ENDPOINT,
    accessKey: env.S3_ACCESS_KEY!,
    secretKey: env.S3_SECRET_KEY!,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    partSize: env.S3_PART_SIZE,
  });
}
