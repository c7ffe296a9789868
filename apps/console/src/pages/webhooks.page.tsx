import { Button, Stack, Text, Title } from '@mantine/core';
import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { sessionQuery } from '../api/session';
import { may, rotateWebhookSecret } from '../api/tenant.api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ErrorAlert } from '../components/error-alert';
import { SecretOnce } from '../components/secret-once';
import { AlertsSection } from './alerts.section';
import { WebhookDeliveries } from './webhook-deliveries.section';

/** The tenant's webhook signing secret: rotated here and shown once; the previous one keeps signing for a grace window. */
export function WebhooksPage() {
  const { data: me } = useSuspenseQuery(sessionQuery);
  const [asking, setAsking] = useState(false);
  const rotate = useMutation({ mutationFn: rotateWebhookSecret, onSettled: () => setAsking(false) });
  return (
    <Stack>
      <Title order={1}>Webhooks</Title>
      <Text>
        The gateway signs every webhook it sends you (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) with your tenant's signing secret.
        Check the signature with it before trusting a webhook.
      </Text>
      <Title order={2} size="h3">
        Signing secret
      </Title>
      {rotate.data && (
        <Stack gap="xs">
          <SecretOnce label="Webhook signing secret" value={rotate.data.secret} onDone={() => rotate.reset()} />
          <Text size="sm">
            {rotate.data.previousValidUntil
              ? `The previous secret keeps signing beside this one until ${new Date(rotate.data.previousValidUntil).toLocaleString()}: switch your receiver over before then.`
              : 'Your tenant had no secret before this one.'}
          </Text>
        </Stack>
      )}
      <ErrorAlert error={rotate.error} title="Could not rotate the secret" />
      {may(me, 'webhooks') ? (
        <div>
          <Button onClick={() => setAsking(true)}>Rotate signing secret</Button>
        </div>
      ) : (
        <Text size="sm">Your role ({me?.role}) cannot rotate the secret: ask a tenant owner or developer.</Text>
      )}
      <ConfirmDialog
        opened={asking}
        title="Rotate the signing secret?"
        body="A new secret is made and shown once. The current one keeps signing beside it for a grace window, then stops."
        confirmLabel="Rotate"
        onConfirm={() => rotate.mutate()}
        onCancel={() => setAsking(false)}
        busy={rotate.isPending}
      />
      <AlertsSection canEdit={may(me, 'webhooks')} />
      <WebhookDeliveries canRedeliver={may(me, 'webhooks')} />
    </Stack>
  );
}
