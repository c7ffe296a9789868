import { FileContentReply, FileIdParam, GatewayError, OaicJsonReply, SUBJECTS, type FileIdPayload } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { servedObjectHeaders, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { callerOf } from '../relay/tenant-call';
import { RouteHandler } from '../routing/route-handler.decorator';
import type { RouteRequest } from '../routing/route-request';
import { FileUploadService } from './file-upload.service';
import { EDGE_FILES_ENV, FILES_OBJECT_STORE, type EdgeFilesEnv } from './files-env';

const FILES = SUBJECTS.files.oaic;

/**
 * The files routes that move bytes (spec 4.7): uploads into storage here, downloads streamed back from it.
 * Records and batches are relayed to the files service straight from the route table.
 */
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

  /** The bytes stream from storage as a sandboxed download of a safe type (never a page on the gateway's origin). */
  @RouteHandler('oaic.files.content')
  async content(request: RouteRequest): Promise<undefined> {
    const found = FileContentReply.parse(await this.call(FILES.content, this.fileIdPayload(request)));
    const body = await this.store.get(found.objectKey);
    void request.reply.headers(servedObjectHeaders(found.contentType)).header('content-length', String(found.bytes)).send(body);
    return undefined;
  }

  /** A malformed id names nothing, exactly as an unknown one does. */
  private fileIdPayload(request: RouteRequest): FileIdPayload {
    const value = request.params.file_id;
    const parsed = FileIdParam.safeParse(value);
    if (!parsed.success) throw GatewayError.notFound(`No such File object: ${value ?? ''}`, 'file_id');
    return { ...callerOf(request), fileId: parsed.data };
  }
}
