import { CONSOLE_ROUTES } from '@gateway/contracts/console';
import { Alert, Button, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { call } from '../api/http';
import { startSession } from '../api/session';
import { ErrorAlert } from '../components/error-alert';
import { AuthFrame } from './auth-frame';
import { SIGN_IN_ERRORS } from './sign-in-messages';

const route = getRouteApi('/sign-in');

/** Email and password, or the tenant's single sign-on. */
export function SignInPage() {
  const { error: ssoError, notice } = route.useSearch();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [organization, setOrganization] = useState('');
  const signIn = useMutation({
    mutationFn: () => call(CONSOLE_ROUTES.signIn, { email, password }),
    onSuccess: async (me) => {
      startSession(me);
      await navigate({ to: '/' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  const startSso = (event: FormEvent) => {
    event.preventDefault();
    window.location.assign(`/console/api/oidc/start?tenant=${encodeURIComponent(organization.trim())}`);
  };
  return (
    <AuthFrame title="Sign in to the console">
      <Stack>
        {notice === 'password-set' && (
          <Alert variant="default" role="status" title="Your password is set">
            Sign in with it now.
          </Alert>
        )}
        {ssoError && (
          <Alert color="red" title="Single sign-on did not work" role="alert" variant="default">
            {SIGN_IN_ERRORS[ssoError]}
          </Alert>
        )}
        <form onSubmit={submit} aria-label="Sign in with email and password">
          <Stack>
            <TextInput label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
            <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <ErrorAlert error={signIn.error} title="Could not sign in" />
            <Button type="submit" loading={signIn.isPending}>
              Sign in
            </Button>
          </Stack>
        </form>
        <Divider label="or" labelPosition="center" />
        <form onSubmit={startSso} aria-label="Sign in with single sign-on">
          <Stack>
            <TextInput
              label="Organization"
              description="Your tenant's name in the gateway, if it signs in through its own identity provider."
              required
              value={organization}
              onChange={(e) => setOrganization(e.currentTarget.value)}
            />
            <Button type="submit" variant="default">
              Sign in with single sign-on
            </Button>
          </Stack>
        </form>
        <Text size="sm">New here? Ask your tenant owner or operator for an invite link.</Text>
      </Stack>
    </AuthFrame>
  );
}
