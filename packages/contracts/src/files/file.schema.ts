// Files (spec 2.9, 3.6, 4.7): the public records and the NATS payloads between the edge and the files
// service. The bytes themselves live in object storage; only keys and metadata travel.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { TenantCaller } from '../families/tenant-caller.schema';

export const FILE_PURPOSES = ['batch', 'assistants', 'vision', 'user_data', 'fine-tune', 'evals'] as const;
export const FilePurpose = z.enum(FILE_PURPOSES, { error: `purpose must be one of ${FILE_PURPOSES.join(', ')}` });
export type FilePurpose = z.infer<typeof FilePurpose>;

/** The purposes a file record may have: an upload's, or `batch_output` for the files a batch writes. */
export const FileRecordPurpose = z.enum([...FILE_PURPOSES, 'batch_output'], { error: `purpose must be one of ${FILE_PURPOSES.join(', ')}, batch_output` });
export type FileRecordPurpose = z.infer<typeof FileRecordPurpose>;

/** A file id as the gateway issues it: `file-` and 24 hex digits. */
export const FileIdParam = z.string().regex(/^file-[A-Za-z0-9]{1,64}$/, 'not a file id');

/** The state a stored file is in: every upload is stored whole before its record exists. */
export const FileStatus = z.enum(['uploaded', 'processed', 'error']);

export const FileObject = z.object({
  id: z.string(),
  object: z.literal('file'),
  bytes: z.number().int().nonnegative(),
  created_at: z.number().int(),
  filename: z.string(),
  purpose: FileRecordPurpose,
  status: FileStatus,
  expires_at: z.number().int().nullable(),
  status_details: z.string().nullable(),
});
export type FileObject = z.infer<typeof FileObject>;

export const FileList = z.object({
  object: z.literal('list'),
  data: z.array(FileObject),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});
export type FileList = z.infer<typeof FileList>;

export const FileDeleted = z.object({ id: z.string(), object: z.literal('file'), deleted: z.literal(true) });
export type FileDeleted = z.infer<typeof FileDeleted>;

/** GET /oaic/v1/files query. */
export const FileListQuery = z.object({
  purpose: FileRecordPurpose.optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
  after: FileIdParam.optional(),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
});
export type FileListQuery = z.infer<typeof FileListQuery>;

/** `files.oaic.files.create`: the object the edge already stored, under a key derived from `fileId`. */
export const FileCreatePayload = TenantCaller.extend({
  fileId: FileIdParam,
  objectKey: z.string().min(1),
  filename: z.string().min(1).max(1024),
  purpose: FilePurpose,
  contentType: z.string().min(1),
  bytes: z.number().int().nonnegative(),
});
export type FileCreatePayload = z.infer<typeof FileCreatePayload>;

/** `files.oaic.files.get`, `.delete`, `.content`. */
export const FileIdPayload = TenantCaller.extend({ fileId: FileIdParam });
export type FileIdPayload = z.infer<typeof FileIdPayload>;

export const FileListPayload = TenantCaller.extend({ query: FileListQuery });
export type FileListPayload = z.infer<typeof FileListPayload>;

/** `files.oaic.files.content` reply: where the edge streams the bytes from. */
export const FileContentReply = z.object({ objectKey: z.string().min(1), contentType: z.string().min(1), bytes: z.number().int().nonnegative() });
export type FileContentReply = z.infer<typeof FileContentReply>;

/** A fresh file id; the object key of the file's bytes derives from it (`files/<tenant>/<id>`). */
export function newFileId(): string {
  return `file-${randomBytes(12).toString('hex')}`;
}

/** The first segment of every stored file's object key. */
export const FILE_KEY_PREFIX = 'files';
