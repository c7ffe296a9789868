import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { heldBody } from './held-body';

function drain(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

describe('heldBody', () => {
  it('hands on an error its source raised before anyone read it', async () => {
    const source = new PassThrough();
    const held = heldBody(source);
    source.write('abc');
    source.destroy(new Error('Part terminated early'));
    await sleep(10);
    await expect(pipeline(held, drain())).rejects.toThrow('Part terminated early');
  });

  it('fails when its source is ended, then destroyed before its end was read (a parser giving up on a part)', async () => {
    const source = new Readable({ read: () => undefined });
    const held = heldBody(source);
    source.push(Buffer.alloc(64 * 1024));
    source.push(null);
    source.destroy();
    const outcome = await Promise.race([
      pipeline(held, drain()).then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
      sleep(2000).then(() => 'still waiting'),
    ]);
    expect(outcome).toBe('the upload stream closed before its end');
  });

  it('passes the bytes of a source that ends well', async () => {
    const source = new PassThrough();
    const held = heldBody(source);
    source.end('hello');
    const chunks: Buffer[] = [];
    for await (const chunk of held) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello');
  });

  it('reads a buffer as a stream of its bytes', async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of heldBody(Buffer.from('xyz'))) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('xyz');
  });
});
