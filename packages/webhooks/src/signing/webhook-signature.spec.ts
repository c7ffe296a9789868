import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret } from './webhook-secret';
import { signWebhook } from './webhook-signature';

describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ code: 200, msg: 'success', data: { callbackType: 'complete', taskId: 't1', data: [] } });

  it('verifies with the independent standardwebhooks library', () => {
    const secret = generateWebhookSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = signWebhook([secret], 'msg_abc', now, body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('signs with the old and the new secret during a rotation, each verifying on its own', () => {
    const [previous, current] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signWebhook([current, previous], 'msg_rot', Math.floor(Date.now() / 1000), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow();
  });

  it('fails verification when the body or the id changes', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook([secret], 'msg_x', Math.floor(Date.now() / 1000), body);
    expect(() => new Webhook(secret).verify(body.replace('t1', 't2'), { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_y' })).toThrow();
  });

  it('writes secrets as whsec_ and base64', () => {
    expect(generateWebhookSecret()).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(() => signWebhook([], 'msg_x', 1, body)).toThrow();
  });
});
