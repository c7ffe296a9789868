import { channel } from '../../test/fixtures/chat-fixtures';
import type { UpstreamRequest } from '../provider.types';
import { authorizeUpstream } from './upstream-auth.registry';

const request: UpstreamRequest = {
  method: 'POST',
  url: 'https://upstream.example/v1/chat/completions',
  headers: { 'api-key': 'k' },
  body: '{}',
  stream: false,
};

describe('authorizeUpstream', () => {
  it.each(['openai', 'anthropic', 'gemini', 'dashscope', 'kling', 'music'] as const)('hands a %s call back as it is, at once', (protocol) => {
    expect(authorizeUpstream(request, channel(protocol))).toBe(request);
  });

  it('adds nothing for an Azure provider keyed by api-key', () => {
    expect(authorizeUpstream(request, { ...channel('azure-openai'), settings: { apiVersion: '2024-10-21', paths: 'deployments' } })).toBe(request);
  });

  it("refuses an Azure channel whose settings do not parse, naming the provider's field", () => {
    expect(() => authorizeUpstream(request, { ...channel('azure-openai'), providerId: 'azure-bad', settings: { paths: 'sideways' } })).toThrow(
      /provider "azure-bad" has invalid azure-openai settings \(settings\.paths/,
    );
  });
});
