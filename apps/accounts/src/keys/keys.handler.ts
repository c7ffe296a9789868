import { RpcHandler } from '@gateway/platform';
import {
  KeyCreateRequest,
  KeyIdMessage,
  KeyListRequest,
  KeyResolveRequest,
  parseOrThrow,
  SUBJECTS,
  type KeyContext,
  type KeyCreated,
  type KeyView,
  RPCS,
} from '@gateway/contracts';
import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { KeysService } from './keys.service';

@Controller()
export class KeysHandler {
  constructor(@Inject(KeysService) private readonly keys: KeysService) {}

  @MessagePattern(SUBJECTS.accounts.keys.resolve)
  resolve(@Payload() payload: unknown): Promise<KeyContext | null> {
    return this.keys.resolve(parseOrThrow(KeyResolveRequest, payload).keyHash);
  }

  @RpcHandler(RPCS.accounts.keys.create)
  create(@Payload() payload: unknown): Promise<KeyCreated> {
    const { tenant, name, project, ...rules } = parseOrThrow(KeyCreateRequest, payload);
    return this.keys.create(tenant, name, project, rules);
  }

  @RpcHandler(RPCS.accounts.keys.regenerate)
  regenerate(@Payload() payload: unknown): Promise<KeyCreated> {
    const { id, tenant } = parseOrThrow(KeyIdMessage, payload);
    return this.keys.regenerate(id, tenant);
  }

  @RpcHandler(RPCS.accounts.keys.revoke)
  revoke(@Payload() payload: unknown): Promise<KeyView> {
    const { id, tenant } = parseOrThrow(KeyIdMessage, payload);
    return this.keys.revoke(id, tenant);
  }

  @RpcHandler(RPCS.accounts.keys.list)
  list(@Payload() payload: unknown): Promise<KeyView[]> {
    return this.keys.list(parseOrThrow(KeyListRequest, payload).tenant);
  }
}
