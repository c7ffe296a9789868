import type { MusicTaskView, MusicTrackView } from '@gateway/contracts';
import { OBJECT_STORE, SIGNED_URLS, type SignedUrls } from '@gateway/platform/infra';
import { readBodyBuffer, sendUpstream, type MusicProgress, type MusicUpstreamTrack } from '@gateway/providers';
import { keySegmentOf, objectKey, safeContentType, type ObjectStore } from '@gateway/storage';
import { Inject, Injectable } from '@nestjs/common';
import { MUSIC_ENV, type MusicEnv } from '../config/music-env';
import type { MusicTaskRow } from '../tasks/music-task.repository';
import { StoredMusicResult, type StoredTrack } from '../tasks/music-result';

const MAX_ASSET_BYTES = 200 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = { mp3: 'audio/mpeg', wav: 'audio/wav', png: 'image/png', jpg: 'image/jpeg', mp4: 'video/mp4' };

function extensionOf(url: string, contentType: string | undefined, fallback: string): string {
  const fromType = Object.entries(CONTENT_TYPES).find(([, type]) => contentType?.startsWith(type))?.[0];
  const fromPath = /\.([a-z0-9]{2,4})(?:$|\?)/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  return fromType ?? (fromPath && CONTENT_TYPES[fromPath] ? fromPath : fallback);
}

/**
 * Results outlive the upstream: every file an upstream names is copied into the gateway's storage under
 * the tenant and task, and handed out as an expiring signed link on the gateway's own origin.
 */
@Injectable()
export class MusicAssetsService {
  constructor(
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(SIGNED_URLS) private readonly signed: SignedUrls,
    @Inject(MUSIC_ENV) private readonly env: MusicEnv,
  ) {}

  /** Copies the progress's files in (known ones are kept, not fetched again) and returns the stored result. */
  async ingest(task: MusicTaskRow, progress: MusicProgress, known: StoredMusicResult): Promise<StoredMusicResult> {
    const copied = new Map<string, string>();
    const copy = async (url: string | null, name: string, fallback: string): Promise<string | null> => {
      if (!url) return null;
      const done = copied.get(url);
      if (done) return done;
      const key = await this.copy(task, url, name, fallback);
      copied.set(url, key);
      return key;
    };
    const previous = new Map(known.tracks.map((t) => [t.id, t]));
    const tracks: StoredTrack[] = [];
    for (const track of progress.tracks) tracks.push(await this.ingestTrack(track, previous.get(track.id), copy));
    const files: Record<string, string> = { ...known.files };
    for (const [name, url] of Object.entries(progress.files)) files[name] ??= (await copy(url, keySegmentOf(name, 'file'), 'bin'))!;
    return { tracks: tracks.length > 0 ? tracks : known.tracks, files, details: { ...known.details, ...progress.details } };
  }

  private async ingestTrack(
    track: MusicUpstreamTrack,
    before: StoredTrack | undefined,
    copy: (url: string | null, name: string, fallback: string) => Promise<string | null>,
  ): Promise<StoredTrack> {
    const id = keySegmentOf(track.id, 'track');
    const audioKey = before?.audioKey ?? (await copy(track.audioUrl, `${id}-audio`, 'mp3'));
    const streamAudioKey = before?.streamAudioKey ?? (await copy(track.streamAudioUrl, `${id}-audio`, 'mp3'));
    const imageKey = before?.imageKey ?? (await copy(track.imageUrl, `${id}-image`, 'png'));
    const { audioUrl: _a, streamAudioUrl: _s, imageUrl: _i, ...text } = track;
    return { ...text, audioKey, streamAudioKey: streamAudioKey ?? audioKey, imageKey };
  }

  private async copy(task: MusicTaskRow, url: string, name: string, fallback: string): Promise<string> {
    const response = await sendUpstream({ method: 'GET', url, headers: {}, stream: false }, { timeoutMs: this.env.UPSTREAM_TIMEOUT_MS });
    if (response.status !== 200) {
      await response.body.resume();
      throw new Error(`fetching a result file answered HTTP ${response.status}`);
    }
    const bytes = await readBodyBuffer(response.body, MAX_ASSET_BYTES);
    const header = response.headers['content-type'];
    const contentType = Array.isArray(header) ? header[0] : header;
    const extension = extensionOf(url, contentType, fallback);
    const key = objectKey('music', task.tenantId, task.id, `${name}.${extension}`);
    await this.store.put(key, bytes, CONTENT_TYPES[extension] ?? safeContentType(contentType), bytes.length);
    return key;
  }

  private link(key: string | null): string | null {
    if (key === null) return null;
    const expiresAt = Math.floor(Date.now() / 1000) + this.signed.ttlSeconds;
    return new URL(this.signed.signer.path(key, expiresAt), this.env.PUBLIC_BASE_URL).toString();
  }

  /** The task as a client sees it, every file as a fresh signed link. */
  view(task: MusicTaskRow): MusicTaskView {
    const result = StoredMusicResult.safeParse(task.result);
    const stored = result.success ? result.data : { tracks: [], files: {}, details: {} };
    const sunoData: MusicTrackView[] = stored.tracks.map(({ audioKey, streamAudioKey, imageKey, ...text }) => ({
      ...text,
      audioUrl: this.link(audioKey),
      streamAudioUrl: this.link(streamAudioKey),
      imageUrl: this.link(imageKey),
    }));
    const files = Object.fromEntries(Object.entries(stored.files).map(([name, key]) => [name, this.link(key)!]));
    return {
      taskId: task.id,
      status: task.status as MusicTaskView['status'],
      type: task.route.replace(/^music\./, ''),
      response: { sunoData, files, details: stored.details },
      errorCode: task.errorCode,
      errorMessage: task.errorMessage,
      createTime: task.createdAt.toISOString(),
    };
  }
}
