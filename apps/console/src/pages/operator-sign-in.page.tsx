import { CONSOLE_ROUTES } from '@gateway/contracts/console';
import { Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { call } from '../api/http';
import { startSession } from '../api/session';
import { ErrorAlert } from '../components/error-alert';
import { AuthFrame } from './auth-frame';

/** The operator exchanges the admin token for a session; the token is not kept by the page. */
export function OperatorSignInPage() {
  const navigate = useNavigate();
  const [token, setToken] = useState('');
  const signIn = useMutation({
    mutationFn: () => call(CONSOLE_ROUTES.operatorSignIn, { token }),
    onSuccess: async (me) => {
      setToken('');
      startSession(me);
      await navigate({ to: '/' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <AuthFrame title="Operator sign-in">
      <form onSubmit={submit} aria-label="Sign in with the admin token">
        <Stack>
          <Text size="sm">Enter the gateway's admin token (ADMIN_TOKEN). It is exchanged for a session and not stored by this page.</Text>
          <PasswordInput label="Admin token" autoComplete="off" required value={token} onChange={(e) => setToken(e.currentTarget.value)} />
          <ErrorAlert error={signIn.error} title="Could not sign in" />
          <Button type="submit" loading={signIn.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
