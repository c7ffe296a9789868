// Simulated asynchronous generation shared by the media protocols: a task's state is a function of the
// time since it was submitted, its controls taken from the model name (`model@task=ms,spread=ms,steps=n,
// taskfail=submit|mid,expire=ms,callback=none|duplicate|late`), its results served at expiring temporary URLs
// under /_media.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ControlError, splitModelName } from './controls';

export interface TaskControls {
  /** Time from submission to completion. */
  totalMs: number;
  /** Progress moves in this many steps. */
  steps: number;
  /** `submit`: refused at creation; `mid`: fails halfway. */
  fail: 'submit' | 'mid' | null;
  /** How long a result URL works after completion. */
  expireMs: number;
  /** Callbacks of vendors that make them: `none` never calls back, `duplicate` calls twice, `late` again a second after. */
  callback: 'normal' | 'none' | 'duplicate' | 'late';
}

export type BoardState = 'queued' | 'running' | 'succeeded' | 'failed';

export interface BoardTask {
  id: string;
  output: 'video' | 'image';
  /** The route kind it was created on (native vendors read a task only there). */
  route: string;
  model: string;
  prompt: string;
  seconds: number;
  images: number;
  createdAt: number;
  controls: TaskControls;
}

export interface TaskView {
  state: BoardState;
  progress: number;
  finishedAt: number | null;
}

const Millis = z.coerce.number().int().min(0).max(3_600_000);
const DEFAULTS: TaskControls = { totalMs: 3000, steps: 3, fail: null, expireMs: 3_600_000, callback: 'normal' };

function millis(value: string | undefined, param: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Millis.safeParse(value);
  if (!parsed.success) throw new ControlError(`Invalid ${param}: "${value}" is not a number of milliseconds.`, param);
  return parsed.data;
}

export function taskControls(model: string): TaskControls {
  const { options } = splitModelName(model);
  const fail = options.taskfail;
  if (fail !== undefined && fail !== 'submit' && fail !== 'mid')
    throw new ControlError(`Invalid model@taskfail: "${fail}" (expected submit, mid).`, 'model@taskfail');
  const steps = Number(options.steps ?? DEFAULTS.steps);
  if (!Number.isInteger(steps) || steps < 1 || steps > 100) throw new ControlError(`Invalid model@steps: "${options.steps}".`, 'model@steps');
  const callback = options.callback ?? 'normal';
  if (callback !== 'normal' && callback !== 'none' && callback !== 'duplicate' && callback !== 'late')
    throw new ControlError(`Invalid model@callback: "${callback}" (expected normal, none, duplicate, late).`, 'model@callback');
  // `spread`: each task takes `task` plus a uniformly random part of it, as real upstream times vary.
  const spreadMs = millis(options.spread, 'model@spread', 0);
  return {
    callback,
    totalMs: millis(options.task, 'model@task', DEFAULTS.totalMs) + Math.round(Math.random() * spreadMs),
    steps,
    fail: fail ?? null,
    expireMs: millis(options.expire, 'model@expire', DEFAULTS.expireMs),
  };
}

export function viewOf(task: BoardTask, now = Date.now()): TaskView {
  const { totalMs, steps, fail } = task.controls;
  const elapsed = now - task.createdAt;
  const failAt = fail === 'mid' ? totalMs / 2 : Infinity;
  if (elapsed >= failAt) return { state: 'failed', progress: 50, finishedAt: task.createdAt + failAt };
  if (elapsed >= totalMs) return { state: 'succeeded', progress: 100, finishedAt: task.createdAt + totalMs };
  const step = Math.floor((elapsed / Math.max(1, totalMs)) * steps);
  if (step === 0) return { state: 'queued', progress: 0, finishedAt: null };
  return { state: 'running', progress: Math.min(99, Math.round((step / steps) * 100)), finishedAt: null };
}

/** A temporary result link: which task and file, and until when it works. */
const ResultToken = z.object({ t: z.string(), i: z.number().int().min(0), e: z.number() });

/** The tasks of this sandbox process; bounded (oldest dropped) so a long benchmark stays in memory bounds. */
export class TaskBoard {
  private readonly tasks = new Map<string, BoardTask>();

  constructor(private readonly capacity = 50_000) {}

  create(fields: Omit<BoardTask, 'id' | 'createdAt' | 'controls'>, idPrefix = ''): BoardTask {
    const task: BoardTask = { ...fields, id: `${idPrefix}${randomUUID()}`, createdAt: Date.now(), controls: taskControls(fields.model) };
    this.tasks.set(task.id, task);
    if (this.tasks.size > this.capacity) this.tasks.delete(this.tasks.keys().next().value!);
    return task;
  }

  get(id: string): BoardTask | undefined {
    return this.tasks.get(id);
  }

  /** Temporary URLs of a finished task's files, on `origin`, expiring `expireMs` after completion. */
  resultUrls(task: BoardTask, origin: string, finishedAt: number): string[] {
    const count = task.output === 'video' ? 1 : task.images;
    const extension = task.output === 'video' ? 'mp4' : 'png';
    return Array.from({ length: count }, (_, i) => {
      const token = Buffer.from(JSON.stringify({ t: task.id, i, e: finishedAt + task.controls.expireMs })).toString('base64url');
      return `${origin}/_media/results/${token}/${i}.${extension}`;
    });
  }

  /** The task and file index a result token names, or why it does not work. */
  redeem(token: string, now = Date.now()): { task: BoardTask; index: number } | 'expired' | 'unknown' {
    let parsed: z.infer<typeof ResultToken>;
    try {
      parsed = ResultToken.parse(JSON.parse(Buffer.from(token, 'base64url').toString()));
    } catch {
      return 'unknown';
    }
    if (parsed.e <= now) return 'expired';
    const task = this.tasks.get(parsed.t);
    return task ? { task, index: parsed.i } : 'unknown';
  }
}

/** One board per sandbox process, shared by every media protocol. */
export const TASK_BOARD = new TaskBoard();
