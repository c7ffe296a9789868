import { GatewayError } from '@gateway/contracts';
import type { QueueFactory } from '@gateway/platform';
import { DelayedError, type Job } from 'bullmq';
import { FilesEnv } from '../config/files-env';
import { BatchProcessor } from './batch.processor';
import type { BatchRunnerService } from './batch-runner.service';

type Handler = (data: { batchId: string }, job: Job) => Promise<void>;

/** The processor's job handler, over a runner whose advance does what `advance` says. */
function handlerWith(advance: () => Promise<number | null>): Handler {
  let handler: Handler | undefined;
  const queues = {
    worker: (_name: string, _schema: unknown, h: Handler) => ((handler = h), { on: () => undefined }),
  } as unknown as QueueFactory;
  new BatchProcessor(queues, FilesEnv.parse({}), { advance } as unknown as BatchRunnerService).onApplicationBootstrap();
  return handler!;
}

function job(): Job & { delayedTo: number | null } {
  const fake = { token: 't', delayedTo: null as number | null, moveToDelayed: async (at: number) => void (fake.delayedTo = at) };
  return fake as unknown as Job & { delayedTo: number | null };
}

describe('BatchProcessor', () => {
  it('waits out a gateway service that does not answer, without spending an attempt', async () => {
    const handle = handlerWith(async () => {
      throw new GatewayError('unavailable', 'accounts.catalog.channels did not answer in time');
    });
    const delayed = job();
    const before = Date.now();
    await expect(handle({ batchId: 'batch_1' }, delayed)).rejects.toBeInstanceOf(DelayedError);
    expect(delayed.delayedTo).toBeGreaterThanOrEqual(before + 2000);
  });

  it('lets any other failure count against the job', async () => {
    const handle = handlerWith(async () => {
      throw new Error('the input object is gone');
    });
    const failed = job();
    await expect(handle({ batchId: 'batch_2' }, failed)).rejects.toThrow('the input object is gone');
    expect(failed.delayedTo).toBeNull();
  });

  it('ends a batch that is done, and delays one that waits for its upstream', async () => {
    expect(await handlerWith(async () => null)({ batchId: 'batch_3' }, job())).toBeUndefined();
    const polled = job();
    await expect(handlerWith(async () => 5000)({ batchId: 'batch_4' }, polled)).rejects.toBeInstanceOf(DelayedError);
    expect(polled.delayedTo).toBeGreaterThan(Date.now() + 4000);
  });
});
