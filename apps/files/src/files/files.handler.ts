import { FileCreatePayload, FileIdPayload, FileListPayload, SUBJECTS, parseOrThrow } from '@gateway/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { FilesService } from './files.service';

const FILES = SUBJECTS.files.oaic;

/** NATS entry points of the files routes; each parses its payload and hands it to the service. */
@Controller()
export class FilesHandler {
  constructor(private readonly files: FilesService) {}

  @MessagePattern(FILES.create)
  create(@Payload() payload: unknown) {
    return this.files.create(parseOrThrow(FileCreatePayload, payload));
  }

  @MessagePattern(FILES.list)
  list(@Payload() payload: unknown) {
    const { tenantId, query } = parseOrThrow(FileListPayload, payload);
    return this.files.list(tenantId, query);
  }

  @MessagePattern(FILES.get)
  get(@Payload() payload: unknown) {
    const { tenantId, fileId } = parseOrThrow(FileIdPayload, payload);
    return this.files.get(tenantId, fileId);
  }

  @MessagePattern(FILES.delete)
  delete(@Payload() payload: unknown) {
    const { tenantId, fileId } = parseOrThrow(FileIdPayload, payload);
    return this.files.delete(tenantId, fileId);
  }

  @MessagePattern(FILES.content)
  content(@Payload() payload: unknown) {
    const { tenantId, fileId } = parseOrThrow(FileIdPayload, payload);
    return this.files.content(tenantId, fileId);
  }
}
