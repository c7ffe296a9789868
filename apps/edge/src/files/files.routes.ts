import {
  BatchIdParam,
  FileContentReply,
  FileIdParam,
  GatewayError,
  OaicJsonReply,
  SUBJECTS,
  type BatchCreatePayload,
  type BatchCreateRequest,
  type BatchIdPayload,
  type BatchListPayload,
  type BatchListQuery,
  type FileIdPayload,
  type FileListPayload,
  type FileListQuery,
} from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { servedObjectHeaders, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { callerOf } from '../oaic/oaic-relay.service';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { FileUploadService } from './file-upload.service';
import { EDGE_FILES_ENV, FILES_OBJECT_STORE, type EdgeFilesEnv } from './files-env';

const FILES = SUBJECTS.files.oaic;
const BATCHES = SUBJECTS.files.batches;

/** A malformed id names nothing, exactly as an unknown one does. */
function idParam(schema: typeof FileIdParam | typeof BatchIdParam, value: string | undefined, what: string, param: string): string {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw GatewayError.notFound(`No such ${what} object: ${value ?? ''}`, param);
  return parsed.data;
}

/** The files and batches routes (spec 4.7, 4.8): uploads into storage here, records and batches in the files service. */
@Injectable()
export class FilesRoutes {
  constructor(
    private readonly bus: NatsBus,
    private readonly uploads: FileUploadService,
    @Inject(FILES_OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(EDGE_FILES_ENV) private readonly env: EdgeFilesEnv,
  ) {}

  private call(subject: string, payload: unknown): Promise<OaicJsonReply> {
    return this.bus.request(subject, payload, OaicJsonReply, { timeoutMs: this.env.FILES_TIMEOUT_MS });
  }

  @RouteHandler('oaic.files.create')
  async create(request: RouteRequest): Promise<unknown> {
    const { payload, discard } = await this.uploads.receive(request);
    try {
      return await this.call(FILES.create, payload);
    } catch (error) {
      await discard();
      throw error;
    }
  }

  @RouteHandler('oaic.files.list')
  list(request: RouteRequest<FileListQuery>): Promise<unknown> {
    const payload: FileListPayload = { ...callerOf(request), query: request.query };
    return this.call(FILES.list, payload);
  }

  @RouteHandler('oaic.files.get')
  get(request: RouteRequest): Promise<unknown> {
    return this.call(FILES.get, this.fileIdPayload(request));
  }

  @RouteHandler('oaic.files.delete')
  delete(request: RouteRequest): Promise<unknown> {
    return this.call(FILES.delete, this.fileIdPayload(request));
  }

  /** The bytes stream from storage as a sandboxed download of a safe type (never a page on the gateway's origin). */
  @RouteHandler('oaic.files.content')
  async content(request: RouteRequest): Promise<undefined> {
    const found = FileContentReply.parse(await this.call(FILES.content, this.fileIdPayload(request)));
    const body = await this.store.get(found.objectKey);
    void request.reply.headers(servedObjectHeaders(found.contentType)).header('content-length', String(found.bytes)).send(body);
    return undefined;
  }

  @RouteHandler('oaic.batches.create')
  createBatch(request: RouteRequest<unknown, BatchCreateRequest>): Promise<unknown> {
    const payload: BatchCreatePayload = { ...callerOf(request), body: request.body };
    return this.call(BATCHES.create, payload);
  }

  @RouteHandler('oaic.batches.list')
  listBatches(request: RouteRequest<BatchListQuery>): Promise<unknown> {
    const payload: BatchListPayload = { ...callerOf(request), query: request.query };
    return this.call(BATCHES.list, payload);
  }

  @RouteHandler('oaic.batches.get')
  getBatch(request: RouteRequest): Promise<unknown> {
    return this.call(BATCHES.get, this.batchIdPayload(request));
  }

  @RouteHandler('oaic.batches.cancel')
  cancelBatch(request: RouteRequest): Promise<unknown> {
    return this.call(BATCHES.cancel, this.batchIdPayload(request));
  }

  private fileIdPayload(request: RouteRequest): FileIdPayload {
    return { ...callerOf(request), fileId: idParam(FileIdParam, request.params.file_id, 'File', 'file_id') };
  }

  private batchIdPayload(request: RouteRequest): BatchIdPayload {
    return { ...callerOf(request), batchId: idParam(BatchIdParam, request.params.batch_id, 'Batch', 'batch_id') };
  }
}
