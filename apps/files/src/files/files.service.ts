import {
  FILE_KEY_PREFIX,
  GatewayError,
  type FileContentReply,
  type FileCreatePayload,
  type FileDeleted,
  type FileList,
  type FileListQuery,
  type FileObject,
} from '@gateway/contracts';
import { OBJECT_STORE } from '@gateway/platform/infra';
import { objectKey, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { FILES_ENV, type FilesEnv } from '../config/files-env';
import { fileObjectOf } from './file-record';
import { FilesRepository } from './files.repository';

const DEFAULT_LIST_LIMIT = 10_000;

/** File records per tenant; the bytes are in object storage under a key derived from the tenant and the file id. */
@Injectable()
export class FilesService {
  private readonly logger = new Logger(FilesService.name);

  constructor(
    private readonly repository: FilesRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(FILES_ENV) private readonly env: FilesEnv,
  ) {}

  static keyOf(tenantId: string, fileId: string): string {
    return objectKey(FILE_KEY_PREFIX, tenantId, fileId);
  }

  /**
   * Records an upload the edge already stored; the object must be there, under this tenant's key for this
   * id. An upload that would take the tenant's stored bytes beyond FILES_TENANT_QUOTA_BYTES is refused
   * (413) and its object removed.
   */
  async create(payload: FileCreatePayload): Promise<FileObject> {
    const key = FilesService.keyOf(payload.tenantId, payload.fileId);
    if (payload.objectKey !== key) throw new GatewayError('internal', 'The uploaded file was stored under an unexpected key.');
    const stored = await this.store.stat(key);
    if (!stored || stored.size !== payload.bytes) throw new GatewayError('internal', 'The uploaded file is not in storage as recorded.');
    const row = await this.repository.create(
      {
        id: payload.fileId,
        tenantId: payload.tenantId,
        filename: payload.filename,
        purpose: payload.purpose,
        bytes: BigInt(payload.bytes),
        contentType: payload.contentType,
        objectKey: key,
      },
      BigInt(this.env.FILES_TENANT_QUOTA_BYTES),
    );
    if (!row) {
      await this.store.delete(key).catch((error: Error) => this.logger.warn(`object ${key} of a refused upload stays: ${error.message}`));
      throw new GatewayError(
        'payload_too_large',
        `This upload of ${payload.bytes} bytes would take the files, instructions and messages this account stores beyond its quota of ${this.env.FILES_TENANT_QUOTA_BYTES} bytes (FILES_TENANT_QUOTA_BYTES); delete files to make room.`,
        'FILES_TENANT_QUOTA_BYTES',
      );
    }
    return fileObjectOf(row);
  }

  async list(tenantId: string, query: FileListQuery): Promise<FileList> {
    const limit = query.limit ?? DEFAULT_LIST_LIMIT;
    const rows = await this.repository.list(tenantId, { purpose: query.purpose, limit, after: query.after, order: query.order ?? 'desc' });
    const data = rows.slice(0, limit).map(fileObjectOf);
    return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > limit };
  }

  async get(tenantId: string, fileId: string): Promise<FileObject> {
    return fileObjectOf(await this.found(tenantId, fileId));
  }

  /** Removes the record, then the object: a file whose record is gone can no longer be named. */
  async delete(tenantId: string, fileId: string): Promise<FileDeleted> {
    const row = await this.repository.delete(tenantId, fileId);
    if (!row) throw notFound(fileId);
    await this.store
      .delete(row.objectKey)
      .catch((error: Error) => this.logger.warn(`object ${row.objectKey} of deleted file ${fileId} stays: ${error.message}`));
    return { id: fileId, object: 'file', deleted: true };
  }

  async content(tenantId: string, fileId: string): Promise<FileContentReply> {
    const row = await this.found(tenantId, fileId);
    return { objectKey: row.objectKey, contentType: row.contentType, bytes: Number(row.bytes) };
  }

  private async found(tenantId: string, fileId: string) {
    const row = await this.repository.find(tenantId, fileId);
    if (!row) throw notFound(fileId);
    return row;
  }
}

function notFound(fileId: string): GatewayError {
  return GatewayError.notFound(`No such File object: ${fileId}`, 'file_id');
}
