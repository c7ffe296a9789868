import { Readable } from 'node:stream';
import { GatewayError } from '@gateway/contracts';
import { readBodyBuffer, readBodyJson } from './upstream-client';

function chunked(parts: string[]): Readable {
  return Readable.from(parts.map((part) => Buffer.from(part)));
}

describe('readBodyBuffer', () => {
  it('joins every chunk of the body', async () => {
    await expect(readBodyBuffer(chunked(['{"a":', '1,"b"', ':[2]}'])).then(String)).resolves.toBe('{"a":1,"b":[2]}');
  });

  it('keeps what fits under maxBytes and destroys the rest of the body', async () => {
    const body = chunked(['aaaa', 'bbbb', 'cccc']);
    const read = await readBodyBuffer(body, 9);
    expect(read.toString()).toBe('aaaabbbb');
    await new Promise((resolve) => setImmediate(resolve));
    expect(body.destroyed).toBe(true);
  });

  it('rejects when the body fails mid-way', async () => {
    const body = new Readable({ read() {} });
    const read = readBodyBuffer(body);
    body.push(Buffer.from('partial'));
    body.destroy(new Error('socket hang up'));
    await expect(read).rejects.toThrow('socket hang up');
  });

  it('rejects a body destroyed before its end as an upstream error', async () => {
    const body = new Readable({ read() {} });
    const read = readBodyBuffer(body);
    body.push(Buffer.from('partial'));
    body.destroy();
    await expect(read).rejects.toBeInstanceOf(GatewayError);
  });

  it('answers an empty buffer for a body that already ended', async () => {
    const body = chunked([]);
    body.resume();
    await new Promise((resolve) => body.once('end', resolve));
    await expect(readBodyBuffer(body).then((b) => b.length)).resolves.toBe(0);
  });
});

describe('readBodyJson', () => {
  it('parses a chunked JSON body', async () => {
    await expect(readBodyJson(chunked(['{"id":"x",', '"n":[1,2]}']))).resolves.toEqual({ id: 'x', n: [1, 2] });
  });

  it('turns a body that is not JSON into upstream_error', async () => {
    await expect(readBodyJson(chunked(['<html>']))).rejects.toMatchObject({ code: 'upstream_error' });
  });
});
