import { RpcHandler } from '@gateway/platform';
import { BatchCreatePayload, BatchIdPayload, BatchListPayload, parseOrThrow, SUBJECTS, RPCS } from '@gateway/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BatchConsoleService } from './batch-console.service';
import { BatchesService } from './batches.service';

const BATCHES = SUBJECTS.files.batches;

/** NATS entry points of the batches routes; each parses its payload and hands it to the service. */
@Controller()
export class BatchesHandler {
  constructor(
    private readonly batches: BatchesService,
    private readonly console: BatchConsoleService,
  ) {}

  @MessagePattern(BATCHES.create)
  create(@Payload() payload: unknown) {
    return this.batches.create(parseOrThrow(BatchCreatePayload, payload));
  }

  @MessagePattern(BATCHES.list)
  list(@Payload() payload: unknown) {
    const { tenantId, query } = parseOrThrow(BatchListPayload, payload);
    return this.batches.list(tenantId, query);
  }

  @MessagePattern(BATCHES.get)
  get(@Payload() payload: unknown) {
    const { tenantId, batchId } = parseOrThrow(BatchIdPayload, payload);
    return this.batches.get(tenantId, batchId);
  }

  @MessagePattern(BATCHES.cancel)
  cancel(@Payload() payload: unknown) {
    const { tenantId, batchId } = parseOrThrow(BatchIdPayload, payload);
    return this.batches.cancel(tenantId, batchId);
  }

  /** The tenant console's tasks page. */
  @RpcHandler(RPCS.files.console.batches)
  consoleList(@Payload() payload: unknown) {
    return this.console.list(payload);
  }
}
