import type { Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { logIfInternal } from '../errors/internal-error-log';
import { clientRequestIdOf } from './request-id';

describe('clientRequestIdOf', () => {
  it('keeps a printable id of up to 128 characters', () => {
    expect(clientRequestIdOf({ 'x-request-id': 'req-abc' })).toBe('req-abc');
    expect(clientRequestIdOf({ 'x-request-id': 'a b/c:~!' })).toBe('a b/c:~!');
    expect(clientRequestIdOf({ 'x-request-id': 'x'.repeat(128) })).toBe('x'.repeat(128));
  });

  it('ignores what is missing, empty, too long or not printable ASCII', () => {
    expect(clientRequestIdOf({})).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': '' })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': 'x'.repeat(129) })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': 'tab\there' })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': 'nul\u0000' })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': 'café' })).toBeUndefined();
    expect(clientRequestIdOf({ 'x-request-id': ['a', 'b'] as unknown as string })).toBeUndefined();
  });
});

describe('the client id in logs', () => {
  const logged = (headers: Record<string, string>) => {
    const lines: string[] = [];
    const logger = { error: (line: string) => lines.push(line) } as unknown as Logger;
    logIfInternal(logger, { id: 'srv-1', method: 'POST', url: '/oaic/v1/chat/completions', headers } as unknown as FastifyRequest, new Error('boom'));
    return lines.join('\n');
  };

  it('logs a 500 under the server id, with the valid client id beside it', () => {
    expect(logged({ 'x-request-id': 'client-7' })).toContain('(request srv-1, client id "client-7")');
  });

  it('leaves an invalid client id out of the log', () => {
    expect(logged({ 'x-request-id': 'bad\u0001id' })).toContain('(request srv-1)');
  });
});
