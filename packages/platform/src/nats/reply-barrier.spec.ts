import { ReplyBarrier } from './reply-barrier';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('ReplyBarrier', () => {
  it('runs the hooks, then the writer, once per turn however many ask for it', async () => {
    const barrier = new ReplyBarrier();
    const seen: string[] = [];
    barrier.register(() => seen.push('records'));
    barrier.setWriter(() => seen.push('replies'));
    // The publisher asks first, then the transport, then the publisher again: still one flush.
    barrier.schedule();
    barrier.schedule();
    barrier.schedule();
    expect(seen).toEqual([]);
    await turn();
    expect(seen).toEqual(['records', 'replies']);
    barrier.schedule();
    await turn();
    expect(seen).toEqual(['records', 'replies', 'records', 'replies']);
  });

  it('passes the hooks alone when asked to directly', () => {
    const barrier = new ReplyBarrier();
    const seen: string[] = [];
    barrier.register(() => seen.push('records'));
    barrier.setWriter(() => seen.push('replies'));
    barrier.pass();
    expect(seen).toEqual(['records']);
  });
});
