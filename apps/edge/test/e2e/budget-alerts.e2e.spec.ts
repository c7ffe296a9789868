/**
 * Account alerts through the whole stack: a soft budget lets requests through and its tenant's endpoint
 * receives budget.threshold_reached once per share in the period, and balance.low once when the balance
 * falls below the tenant's amount; each signed with the tenant's secret, verified with standardwebhooks.
 */
import { AlertList, AlertPayload, AlertSettingsView, WebhookEndpointView } from '@gateway/contracts';
import { Webhook } from 'standardwebhooks';
import { eventually } from './support/billing-fixtures';
import { ask, familyClients } from './support/chat-matrix';
import { runCli } from './support/cli-runner';
import { adminClient, createTenantWithKey, type TenantWithKey } from './support/gateway';
import { WebhookReceiver, type ReceivedHook } from './support/webhook-receiver';

const WINDOW_MS = 20_000;

/** Each distinct webhook-id once, verified with the tenant's secret. */
function verified(hits: readonly ReceivedHook[], secret: string): AlertPayload[] {
  const verifier = new Webhook(secret);
  const seen = new Map<string, AlertPayload>();
  for (const hit of hits) seen.set(hit.headers['webhook-id']!, AlertPayload.parse(verifier.verify(hit.body, hit.headers)));
  return [...seen.values()];
}

async function cli(args: string[]): Promise<unknown> {
  const result = await runCli([...args, '--json']);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout);
}

/** A tenant with a known signing secret and an alert endpoint on the receiver. */
async function hookedTenant(receiver: WebhookReceiver, label: string, events: string, balance?: string): Promise<{ tenant: TenantWithKey; secret: string }> {
  const tenant = await createTenantWithKey({ label, balance });
  const { secret } = (await cli(['webhooks', 'secret', 'rotate', '--tenant', tenant.slug])) as { secret: string };
  const endpoint = WebhookEndpointView.parse(
    await cli(['webhooks', 'endpoint', 'set', '--tenant', tenant.slug, '--url', receiver.url(label), '--events', events]),
  );
  expect(endpoint).toMatchObject({ tenant: tenant.slug, events: events.split(',') });
  return { tenant, secret };
}

describe('budget and balance alerts', () => {
  const receiver = new WebhookReceiver();
  const admin = adminClient();

  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('serves requests over a soft budget and sends budget.threshold_reached once per share in the period', async () => {
    const { tenant, secret } = await hookedTenant(receiver, 'budalert', 'budget.*');
    await admin.setBudget({ key: tenant.id, amount: '0.000001', period: 'day', mode: 'soft' });

    const first = await ask(familyClients(tenant.key), 'oaic', 'sandbox-gpt', { user: 'Hello', stream: false });
    expect(first.text).toContain('Hello');
    const alerts = await eventually(
      'three budget alerts',
      async () => verified(receiver.at('budalert'), secret),
      (list) => list.length >= 3,
      WINDOW_MS,
    );
    const shares = alerts.map((a) => (a.type === 'budget.threshold_reached' ? a.data.share : null)).sort((a, b) => a! - b!);
    expect(shares).toEqual([50, 80, 100]);
    expect(alerts[0]).toMatchObject({
      type: 'budget.threshold_reached',
      data: { tenant: tenant.slug, scope: 'key', key: tenant.id, project: 'default', amount: '0.000001', mode: 'soft', period: 'day' },
    });

    // A second request in the same period is served too and sends nothing new.
    const usedBefore = BigInt((await admin.showBudget({ key: tenant.id }))!.usedMicros);
    await ask(familyClients(tenant.key), 'oaic', 'sandbox-gpt', { user: 'Again', stream: false });
    await eventually(
      'the second charge counted',
      () => admin.showBudget({ key: tenant.id }),
      (b) => b !== null && BigInt(b.usedMicros) > usedBefore,
      WINDOW_MS,
    );
    const listed = AlertList.parse(await cli(['alerts', 'list', '--tenant', tenant.slug]));
    expect(listed.data.map((a) => a.type)).toEqual(['budget.threshold_reached', 'budget.threshold_reached', 'budget.threshold_reached']);
    await eventually(
      'every alert delivered',
      async () => AlertList.parse(await cli(['alerts', 'list', '--tenant', tenant.slug])).data,
      (list) => list.every((a) => a.delivery?.status === 'delivered'),
      WINDOW_MS,
    );
    expect(verified(receiver.at('budalert'), secret)).toHaveLength(3);
  }, 90_000);

  it('sends balance.low once when the balance falls below the tenant’s amount', async () => {
    const { tenant, secret } = await hookedTenant(receiver, 'lowbal', 'balance.*', '1.00');
    const settings = AlertSettingsView.parse(await cli(['alerts', 'set', '--tenant', tenant.slug, '--balance-below', '0.999999']));
    expect(settings).toMatchObject({ tenant: tenant.slug, balanceBelow: '0.999999', quotaBelow: null });

    await ask(familyClients(tenant.key), 'oaic', 'sandbox-gpt', { user: 'Hello', stream: false });
    const [alert] = await eventually(
      'balance.low',
      async () => verified(receiver.at('lowbal'), secret),
      (list) => list.length >= 1,
      WINDOW_MS,
    );
    expect(alert).toMatchObject({ type: 'balance.low', data: { tenant: tenant.slug, threshold: '0.999999', thresholdMicros: '999999' } });
    expect(alert!.type === 'balance.low' && BigInt(alert!.data.balanceMicros) < 999_999n).toBe(true);

    // Still below after another request: no second alert, and the list holds the one.
    await ask(familyClients(tenant.key), 'oaic', 'sandbox-gpt', { user: 'Again', stream: false });
    const listed = await eventually(
      'the alert delivered',
      async () => AlertList.parse(await cli(['alerts', 'list', '--tenant', tenant.slug])).data,
      (list) => list.length === 1 && list[0]!.delivery?.status === 'delivered',
      WINDOW_MS,
    );
    expect(listed[0]).toMatchObject({ type: 'balance.low', subject: expect.stringMatching(/^balance:[0-9a-f-]{36}:\d+$/) });
    expect(verified(receiver.at('lowbal'), secret)).toHaveLength(1);
  }, 90_000);
});
