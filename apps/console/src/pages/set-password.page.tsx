import { CONSOLE_ROUTES, PASSWORD_MIN_LENGTH } from '@gateway/contracts/console';
import { Button, Center, Loader, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { call } from '../api/http';
import { startSession } from '../api/session';
import { ErrorAlert } from '../components/error-alert';
import { AuthFrame } from './auth-frame';
import { usePasswordCheck } from './use-password-check';

/** The invite link's token, from the fragment (never sent to a server); removed from the address bar at once. */
function takeInviteToken(): string {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  return token;
}

/** Following an invite: the person chooses a password (the rule the server checks) and is signed in with it. */
export function SetPasswordPage() {
  const navigate = useNavigate();
  const [token] = useState(takeInviteToken);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const invite = useQuery({
    queryKey: ['invite', token],
    queryFn: () => call(CONSOLE_ROUTES.inviteLookup, { token }),
    enabled: token !== '',
    retry: false,
  });
  const passwordCheck = usePasswordCheck();
  const accept = useMutation({
    mutationFn: async () => {
      const accepted = await call(CONSOLE_ROUTES.inviteAccept, { token, password });
      return call(CONSOLE_ROUTES.signIn, { email: accepted.email, password }).catch(() => null);
    },
    onSuccess: async (me) => {
      if (!me) return navigate({ to: '/sign-in', search: { notice: 'password-set' } });
      startSession(me);
      return navigate({ to: '/' });
    },
  });
  const problem = password === '' || !passwordCheck ? null : passwordCheck(password, { email: invite.data?.email, tenant: invite.data?.tenant });
  const mismatch = confirm !== '' && confirm !== password;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!problem && !mismatch) accept.mutate();
  };

  if (token === '') {
    return (
      <AuthFrame title="Set your password">
        <ErrorAlert error={new Error('This page needs the link from your invite: open the link you were sent, whole.')} title="No invite in this link" />
      </AuthFrame>
    );
  }
  if (invite.isPending) {
    return (
      <AuthFrame title="Set your password">
        <Center>
          <Loader role="status" aria-label="Loading the invite" />
        </Center>
      </AuthFrame>
    );
  }
  if (invite.isError) {
    return (
      <AuthFrame title="Set your password">
        <ErrorAlert error={invite.error} title="This invite cannot be used" />
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Set your password">
      <form onSubmit={submit} aria-label="Set your password">
        <Stack>
          <Text>
            For <strong>{invite.data.email}</strong> in <strong>{invite.data.tenant}</strong> ({invite.data.role}).
          </Text>
          <PasswordInput
            label="New password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters. A few words in a row work well; no special characters needed.`}
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={problem}
          />
          <PasswordInput
            label="Repeat the password"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
            error={mismatch ? 'The two passwords differ.' : null}
          />
          <ErrorAlert error={accept.error} title="Could not set the password" />
          <Button type="submit" loading={accept.isPending} disabled={!passwordCheck || problem !== null || mismatch || password === ''}>
            Set password
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
