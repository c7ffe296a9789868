import { OBJECT_STORE } from '@gateway/platform/infra';
import type { MediaAsset } from '@gateway/providers';
import { objectKey, safeContentType, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import type { StoredResult } from '../tasks/media-task.schema';
import { MediaUpstreamService } from './media-upstream.service';

const DEFAULT_TYPE = { video: 'video/mp4', image: 'image/png' } as const;
const EXTENSION: Record<string, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm', 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * Copies a task's generated files from the upstream's (temporary) URLs into object storage, streaming,
 * under `media/<tenant>/<task>/<n>.<ext>`: keys from server ids only, so a second copy (a job run twice)
 * overwrites the first.
 */
@Injectable()
export class ResultStoreService {
  constructor(
    private readonly upstream: MediaUpstreamService,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async ingest(tenantId: string, taskId: string, assets: readonly MediaAsset[]): Promise<StoredResult[]> {
    const stored: StoredResult[] = [];
    for (const [index, asset] of assets.entries()) {
      const download = await this.upstream.download(asset);
      const declared = safeContentType(download.contentType);
      const contentType = declared.startsWith(`${asset.kind}/`) ? declared : DEFAULT_TYPE[asset.kind];
      const key = objectKey('media', tenantId, taskId, `${index}.${EXTENSION[contentType] ?? 'bin'}`);
      const info = await this.store.put(key, download.body, contentType, download.size ?? undefined);
      stored.push({ key, contentType, size: info.size, kind: asset.kind });
    }
    return stored;
  }
}
