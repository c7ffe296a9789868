import type { FileObject, FileRecordPurpose } from '@gateway/contracts';
import type { FileRow } from './files.repository';

/** The public record of a stored file (spec 2.9). */
export function fileObjectOf(row: FileRow): FileObject {
  return {
    id: row.id,
    object: 'file',
    bytes: Number(row.bytes),
    created_at: Math.floor(row.createdAt.getTime() / 1000),
    filename: row.filename,
    purpose: row.purpose as FileRecordPurpose,
    status: row.status as FileObject['status'],
    expires_at: null,
    status_details: null,
  };
}
