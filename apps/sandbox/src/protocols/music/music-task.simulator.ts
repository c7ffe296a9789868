// The music vendor's tasks: each one goes through its stages on a timer, calling the task's callBackUrl
// at each stage (text, first, complete — or once for the other kinds) and answering record-info, with
// the failures and callback misbehaviours a gateway must survive selected per call.
import { randomBytes } from 'node:crypto';
import type { FileShelf } from '../../core/file-shelf';
import { buildPng, buildWav } from '../../core/media.builder';
import { buildMp3, buildMp4 } from './music-files.builder';

export type CallbackMode = 'normal' | 'none' | 'duplicate' | 'reorder';
export type MusicKind = 'song' | 'lyrics' | 'timestamps' | 'style' | 'cover' | 'persona' | 'stems' | 'wav' | 'mp4';
export type Stage = 'text' | 'first' | 'complete';

export interface MusicControls {
  stageMs: number;
  callbacks: CallbackMode;
  fail: 'generate' | null;
}

export interface SimulatedTask {
  id: string;
  kind: MusicKind;
  status: 'PENDING' | 'TEXT_SUCCESS' | 'FIRST_SUCCESS' | 'SUCCESS' | 'GENERATE_AUDIO_FAILED';
  callBackUrl: string;
  model: string;
  title: string;
  prompt: string;
  tracks: Record<string, unknown>[];
  result: Record<string, unknown> | unknown[] | null;
}

const STATUS: Record<Stage, SimulatedTask['status']> = { text: 'TEXT_SUCCESS', first: 'FIRST_SUCCESS', complete: 'SUCCESS' };

/** Parses `V4_5@stage=50,callbacks=duplicate,fail=generate`. */
export function musicControls(model: string): MusicControls {
  const options = Object.fromEntries(
    (model.split('@')[1] ?? '')
      .split(',')
      .filter(Boolean)
      .map((part) => part.split('=') as [string, string]),
  );
  const stageMs = Number(options.stage ?? 50);
  const callbacks = (['normal', 'none', 'duplicate', 'reorder'] as const).find((mode) => mode === options.callbacks) ?? 'normal';
  return {
    stageMs: Number.isFinite(stageMs) && stageMs >= 0 ? Math.min(stageMs, 600_000) : 50,
    callbacks,
    fail: options.fail === 'generate' ? 'generate' : null,
  };
}

export class MusicSimulator {
  private readonly tasks = new Map<string, SimulatedTask>();

  constructor(
    private readonly files: FileShelf,
    private readonly capacity = 5000,
  ) {}

  get(id: string): SimulatedTask | undefined {
    return this.tasks.get(id);
  }

  start(kind: MusicKind, body: Record<string, unknown>, origin: string): SimulatedTask {
    const model = typeof body.model === 'string' ? body.model : 'V4_5';
    const task: SimulatedTask = {
      id: randomBytes(16).toString('hex'),
      kind,
      status: 'PENDING',
      callBackUrl: String(body.callBackUrl ?? ''),
      model: model.split('@')[0]!,
      title: typeof body.title === 'string' ? body.title : 'Sandbox song',
      prompt: typeof body.prompt === 'string' ? body.prompt : typeof body.content === 'string' ? body.content : '',
      tracks: [],
      result: null,
    };
    this.tasks.set(task.id, task);
    if (this.tasks.size > this.capacity) this.tasks.delete(this.tasks.keys().next().value!);
    void this.run(task, musicControls(model), origin);
    return task;
  }

  private async run(task: SimulatedTask, controls: MusicControls, origin: string): Promise<void> {
    const stages: Stage[] = task.kind === 'song' ? ['text', 'first', 'complete'] : ['complete'];
    const sent: Array<{ stage: Stage | 'error'; body: unknown }> = [];
    for (const stage of stages) {
      await new Promise((resolve) => setTimeout(resolve, controls.stageMs));
      if (controls.fail === 'generate') {
        task.status = 'GENERATE_AUDIO_FAILED';
        sent.push({
          stage: 'error',
          body: { code: 501, msg: 'Audio generation failed. (sandbox fail=generate)', data: { callbackType: 'error', task_id: task.id, data: null } },
        });
        break;
      }
      this.advance(task, stage, origin);
      sent.push({ stage, body: this.callbackBody(task, stage) });
    }
    if (controls.callbacks === 'none' || !task.callBackUrl) return;
    const order = controls.callbacks === 'reorder' ? [...sent].reverse() : sent;
    for (const { body } of order) {
      await this.post(task.callBackUrl, body);
      if (controls.callbacks === 'duplicate') await this.post(task.callBackUrl, body);
    }
  }

  private async post(url: string, body: unknown): Promise<void> {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      await response.arrayBuffer();
    } catch {
      // The vendor does not retry a receiver that fails: the gateway's poller covers it.
    }
  }

  private shelve(bytes: Buffer, contentType: string, extension: string, origin: string): string {
    return `${origin}/_sandbox/files/${this.files.put({ contentType, bytes }, extension)}`;
  }

  private advance(task: SimulatedTask, stage: Stage, origin: string): void {
    task.status = STATUS[stage];
    if (task.kind === 'song') {
      if (task.tracks.length === 0) {
        task.tracks = [1, 2].map((n) => ({
          id: `${task.id.slice(0, 24)}${n}`.padEnd(26, '0'),
          title: task.title,
          prompt: task.prompt,
          model_name: task.model,
          tags: 'sandbox',
          createTime: Date.now(),
        }));
      }
      const withAudio = stage === 'text' ? 0 : stage === 'first' ? 1 : 2;
      task.tracks.forEach((track, i) => {
        if (i < withAudio && !track.audio_url) {
          const audio = this.shelve(buildMp3(2), 'audio/mpeg', 'mp3', origin);
          Object.assign(track, {
            audio_url: audio,
            stream_audio_url: audio,
            image_url: this.shelve(buildPng(`${task.id}${i}`), 'image/png', 'png', origin),
            duration: 2,
          });
        }
      });
      task.result = task.tracks;
      return;
    }
    task.result = this.resultOf(task, origin);
  }

  private resultOf(task: SimulatedTask, origin: string): Record<string, unknown> | unknown[] {
    switch (task.kind) {
      case 'lyrics':
        return [{ text: `[Verse]\n${task.prompt}\n[Chorus]\nla la la`, title: 'Sandbox lyrics', status: 'complete' }];
      case 'timestamps':
        return { alignedWords: [{ word: 'la', success: true, startS: 0, endS: 0.5, palign: 0 }], waveformData: [0, 0.5, 0.2], hootCer: 0.1, isStreamed: false };
      case 'style':
        return { style: `${task.prompt}, warm analog synths, steady groove` };
      case 'persona':
        return { personaId: `persona_${task.id.slice(0, 12)}`, name: task.title, description: task.prompt };
      case 'cover':
        return { images: [1, 2].map((n) => this.shelve(buildPng(`${task.id}c${n}`), 'image/png', 'png', origin)) };
      case 'stems':
        return {
          vocal_url: this.shelve(buildMp3(2), 'audio/mpeg', 'mp3', origin),
          instrumental_url: this.shelve(buildMp3(2), 'audio/mpeg', 'mp3', origin),
        };
      case 'wav':
        return { audio_wav_url: this.shelve(buildWav(task.id, 1), 'audio/wav', 'wav', origin) };
      case 'mp4':
        return { video_url: this.shelve(buildMp4(), 'video/mp4', 'mp4', origin) };
      case 'song':
        return task.tracks;
    }
  }

  callbackBody(task: SimulatedTask, stage: Stage): unknown {
    return {
      code: 200,
      msg: stage === 'complete' ? 'All generated successfully.' : `${stage} generated successfully.`,
      data: { callbackType: stage, task_id: task.id, data: task.result },
    };
  }

  /** The record-info answer: camelCase tracks under response.sunoData for songs, the result object for the rest. */
  recordInfo(task: SimulatedTask): unknown {
    const camel = (track: Record<string, unknown>) => ({
      id: track.id,
      audioUrl: track.audio_url ?? '',
      streamAudioUrl: track.stream_audio_url ?? '',
      imageUrl: track.image_url ?? '',
      prompt: track.prompt,
      modelName: track.model_name,
      title: track.title,
      tags: track.tags,
      createTime: track.createTime,
      duration: track.duration ?? null,
    });
    const response = task.kind === 'song' ? { taskId: task.id, sunoData: task.tracks.map(camel) } : { taskId: task.id, result: task.result };
    const failed = task.status === 'GENERATE_AUDIO_FAILED';
    return {
      code: 200,
      msg: 'success',
      data: { taskId: task.id, status: task.status, response, errorCode: failed ? 501 : null, errorMessage: failed ? 'Audio generation failed.' : null },
    };
  }
}
