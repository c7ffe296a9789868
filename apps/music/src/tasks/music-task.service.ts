import {
  GatewayError,
  MUSIC_ROUTES,
  MusicCreatePayload,
  MusicQueryPayload,
  parseOrThrow,
  type CatalogChannel,
  type MusicCreated,
  type MusicTaskStatus,
  type MusicTaskView,
} from '@gateway/contracts';
import { TaskBilling } from '@gateway/billing';
import { pgText } from '@gateway/db';
import { CatalogCache, type ModelFaultWording } from '@gateway/platform';
import { callbackUrlProblem, destinationSettingsOf } from '@gateway/webhooks';
import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { MusicAssetsService } from '../assets/music-assets.service';
import { MUSIC_ENV, type MusicEnv } from '../config/music-env';
import { MusicPollScheduler } from '../progress/music-poll.scheduler';
import { MusicProgressService } from '../progress/music-progress.service';
import { MusicUpstreamClient } from '../upstream/music-upstream.client';
import { StoredMusicResult } from './music-result';
import { MusicTaskRepository, type MusicTaskRow } from './music-task.repository';

/** The family's wording when `model` names no music model the tenant may use. */
const MUSIC_MODEL_WORDING: Partial<ModelFaultWording> = {
  notFound: (modelId) => `Invalid value for 'model': the music model '${modelId}' does not exist or you do not have access to it.`,
  wrongCapability: (modelId, capability) => `Invalid value for 'model': '${modelId}' is a ${capability} model, not a music model.`,
};
const NO_MUSIC_MODEL = "Missing required parameter: 'model' (no music model is available to this key).";

/** The billing request id of a music task's hold (its ledger entries and usage record carry it). */
export const musicHoldId = (tenantId: string, taskId: string) => `music:${tenantId}:${taskId}`;
/** Where the upstream's callbacks for a task are taken in: the public intake route and the task's own token. */
export const CALLBACK_PATH = '/music/callbacks/';

export function tokenHashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

interface SourceFields {
  taskId?: string;
  audioId?: string;
  model?: string;
  callBackUrl: string;
}

/** Creating music tasks (validate, resolve the model and source, hold, submit, record) and answering queries. */
@Injectable()
export class MusicTaskService {
  constructor(
    private readonly tasks: MusicTaskRepository,
    private readonly catalog: CatalogCache,
    private readonly upstream: MusicUpstreamClient,
    private readonly progress: MusicProgressService,
    private readonly assets: MusicAssetsService,
    private readonly polls: MusicPollScheduler,
    private readonly billing: TaskBilling,
    @Inject(MUSIC_ENV) private readonly env: MusicEnv,
  ) {}

  async create(payload: unknown): Promise<MusicCreated> {
    const caller = parseOrThrow(MusicCreatePayload, payload);
    const spec = MUSIC_ROUTES[caller.verb];
    const body = parseOrThrow(spec.body, caller.body) as Record<string, unknown> & SourceFields;
    const urlProblem = callbackUrlProblem(body.callBackUrl, destinationSettingsOf(this.env));
    if (urlProblem) throw GatewayError.invalid(`Invalid value for 'callBackUrl': ${urlProblem}`, 'callBackUrl');

    const source = body.taskId === undefined ? null : await this.source(caller.tenantId, body.taskId, body.audioId);
    const modelId = body.model ?? source?.model ?? (await this.catalog.defaultModel(caller.tenantId, 'music', NO_MUSIC_MODEL));
    const route = await this.catalog.route(caller, modelId, 'music', MUSIC_MODEL_WORDING);
    const channel = this.channelFor(route.channels, source);

    const id = randomBytes(16).toString('hex');
    const token = randomBytes(32).toString('base64url');
    const deadlineAt = new Date(Date.now() + this.env.MUSIC_TASK_DEADLINE_MS);
    const hold = await this.billing.hold({
      holdId: musicHoldId(caller.tenantId, id),
      tenantId: caller.tenantId,
      keyKind: caller.keyKind,
      model: route.model,
      quantity: { tasks: 1 },
      holdTtlMs: this.env.MUSIC_TASK_DEADLINE_MS + 10 * 60_000,
      budgets: caller.budgets,
    });
    const task = await this.tasks.create({
      id,
      tenantId: caller.tenantId,
      keyId: caller.keyId,
      route: caller.route,
      queryKind: spec.queryKind,
      model: modelId,
      channelId: channel.id,
      tokenHash: tokenHashOf(token),
      callBackUrl: pgText(body.callBackUrl),
      request: body,
      clientRequestId: caller.clientRequestId ?? null,
      deadlineAt,
    });
    if (hold) await this.tasks.setHold(id, hold);

    let upstreamTaskId: string;
    try {
      const intake = new URL(CALLBACK_PATH + token, this.env.PUBLIC_BASE_URL).toString();
      upstreamTaskId = await this.upstream.submit(caller.verb, body, channel, intake, source?.upstreamTaskId ?? null);
    } catch (error) {
      const refusal = error instanceof GatewayError ? error : new GatewayError('upstream_error', 'The upstream could not be reached.');
      await this.progress.fail({ ...task, hold: hold ?? null }, 'CREATE_TASK_FAILED', refusal.upstreamStatus ?? 500, refusal.message);
      // A round of the poller finishes its billing if that failed here (it has nothing else to do for it).
      await this.polls.schedule(id, 1).catch(() => undefined);
      throw refusal;
    }
    await this.tasks.setUpstream(id, upstreamTaskId, hold);
    await this.polls.schedule(id, 1);
    return { taskId: id };
  }

  async query(payload: unknown): Promise<MusicTaskView> {
    const { tenantId, kind, taskId } = parseOrThrow(MusicQueryPayload, payload);
    const task = await this.tasks.findForTenant(tenantId, taskId);
    if (!task || task.queryKind !== kind) throw GatewayError.notFound(`Invalid value for 'taskId': no music task '${taskId}' on this query route.`, 'taskId');
    return this.assets.view(task);
  }

  /** The tenant's own completed task a transform names, checked for the audioId it names. */
  private async source(tenantId: string, taskId: string, audioId: string | undefined): Promise<MusicTaskRow> {
    const task = await this.tasks.findForTenant(tenantId, taskId);
    if (!task) throw GatewayError.notFound(`Invalid value for 'taskId': no music task '${taskId}'.`, 'taskId');
    if ((task.status as MusicTaskStatus) !== 'SUCCESS' || !task.upstreamTaskId) {
      throw GatewayError.invalid(`Invalid value for 'taskId': the task '${taskId}' has not completed (status ${task.status}).`, 'taskId');
    }
    if (audioId !== undefined) {
      const result = StoredMusicResult.safeParse(task.result);
      if (!result.success || !result.data.tracks.some((t) => t.id === audioId)) {
        throw GatewayError.invalid(`Invalid value for 'audioId': the task '${taskId}' has no audio '${audioId}'.`, 'audioId');
      }
    }
    return task;
  }

  /** A transform of an earlier task goes to the channel that made it (only there does the upstream know its id). */
  private channelFor(channels: readonly CatalogChannel[], source: MusicTaskRow | null): CatalogChannel {
    if (source === null) return channels[0]!;
    const channel = channels.find((c) => c.id === source.channelId);
    if (!channel)
      throw new GatewayError(
        'unavailable',
        `Invalid value for 'taskId': the upstream channel that made the task '${source.id}' is no longer configured.`,
        'taskId',
      );
    return channel;
  }
}
