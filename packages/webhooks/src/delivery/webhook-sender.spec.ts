import { WebhookSender } from './webhook-sender';

describe('webhook sender', () => {
  it('closes its pool once however often shutdown asks', async () => {
    const sender = new WebhookSender({ allowPrivate: false, ownPorts: new Set() }, 1000);
    await sender.close();
    await expect(sender.close()).resolves.not.toThrow();
    await expect(Promise.all([sender.close(), sender.close()])).resolves.toHaveLength(2);
  });
});
