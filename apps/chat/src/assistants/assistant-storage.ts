import { GatewayError } from '@gateway/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { CHAT_ENV, type ChatEnv } from '../config/chat-env';
import { AssistantObjectsRepository } from './assistant-objects.repository';

/**
 * Instructions and messages written through the gateway count toward the tenant's storage quota
 * (FILES_TENANT_QUOTA_BYTES, shared with uploaded files): claimed before the upstream stores them,
 * given back when the upstream refuses them or the object is deleted.
 */
@Injectable()
export class AssistantStorage {
  constructor(
    private readonly objects: AssistantObjectsRepository,
    @Inject(CHAT_ENV) private readonly env: ChatEnv,
  ) {}

  /** Claims `bytes`, or throws the 413 naming the quota; then runs `write`, giving the bytes back if it fails. */
  async within<T>(tenantId: string, bytes: bigint, write: () => Promise<T>): Promise<T> {
    const quota = BigInt(this.env.FILES_TENANT_QUOTA_BYTES);
    if (!(await this.objects.claimStorage(tenantId, bytes, quota))) {
      throw new GatewayError(
        'payload_too_large',
        `These ${bytes} bytes of instructions or messages would take what this account stores beyond its quota of ${quota} bytes (FILES_TENANT_QUOTA_BYTES); delete files, threads or assistants to make room.`,
        'FILES_TENANT_QUOTA_BYTES',
      );
    }
    try {
      return await write();
    } catch (error) {
      await this.objects.releaseStorage(tenantId, bytes);
      throw error;
    }
  }
}
