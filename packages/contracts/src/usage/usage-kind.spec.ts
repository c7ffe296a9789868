import { usageKindOf, usageResultOf, usageSubjectOf } from './usage-kind';

describe('usage kinds', () => {
  it('reads a batch line from its <batch id>-<line> request id under the batch id, and its batch as its subject', () => {
    const line = { requestId: 'batch_0a1b-7', clientRequestId: 'batch_0a1b', route: 'oaic.chat' };
    expect(usageKindOf(line)).toBe('batch_line');
    expect(usageSubjectOf(line)).toBe('batch_0a1b');
    // A client that sends a batch-like x-request-id on a live request is still a chat request.
    const live = { requestId: '3f2c', clientRequestId: 'batch_0a1b', route: 'oaic.chat' };
    expect(usageKindOf(live)).toBe('chat');
    expect(usageSubjectOf(live)).toBeNull();
  });

  it('reads the kind of a live request from its route, and keeps a kind its publisher named', () => {
    const kind = (route: string) => usageKindOf({ requestId: 'r', route });
    expect(kind('oaic.chat')).toBe('chat');
    expect(kind('msgc.messages')).toBe('chat');
    expect(kind('oaic.threads.runs.create')).toBe('assistants_run');
    expect(kind('oaic.threads.create')).toBe('assistants');
    expect(kind('oaic.images.generations')).toBe('images');
    expect(kind('oaic.audio.transcriptions')).toBe('audio');
    expect(kind('oaic.embeddings')).toBe('embeddings');
    expect(kind('oaic.moderations')).toBe('moderations');
    expect(usageKindOf({ requestId: 'r', route: 'oaic.chat', kind: 'music_task' })).toBe('music_task');
    expect(usageKindOf({ requestId: 'r', route: 'msgc.messages', kind: 'cache_hit' })).toBe('cache_hit');
    expect(usageSubjectOf({ requestId: 'r', route: 'oaic.chat', subjectId: 'run_1' })).toBe('run_1');
  });

  it('says every outcome in the shared vocabulary', () => {
    expect(['ok', 'succeeded', 'cache_hit', 'upstream_error', 'error', 'cancelled', 'expired', 'refunded'].map(usageResultOf)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'failed',
      'failed',
      'cancelled',
      'expired',
      'refunded',
    ]);
  });
});
