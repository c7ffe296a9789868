import { AppShell, Burger, Button, Group, NavLink, Text, Title, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { CONSOLE_ROUTES } from '@gateway/contracts/console';
import { call } from '../api/http';
import { SIDE, sessionQuery, startSession } from '../api/session';

const TENANT_PAGES = [
  { to: '/overview', label: 'Overview' },
  { to: '/usage', label: 'Usage' },
  { to: '/tasks', label: 'Tasks' },
  { to: '/keys', label: 'API keys' },
  { to: '/projects', label: 'Projects' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/models', label: 'Models' },
] as const;
const OPERATOR_PAGES = [
  { to: '/tenants', label: 'Tenants' },
  { to: '/catalog', label: 'Catalog' },
  { to: '/dead-letters', label: 'Dead letters' },
  { to: '/queues', label: 'Queues' },
  { to: '/reconciliation', label: 'Reconciliation' },
] as const;

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const current = useComputedColorScheme('light');
  const next = current === 'dark' ? 'light' : 'dark';
  return (
    <Button variant="default" size="xs" onClick={() => setColorScheme(next)} aria-label={`Switch to ${next} mode`}>
      {next === 'dark' ? 'Dark mode' : 'Light mode'}
    </Button>
  );
}

/** Header (who is signed in, dark mode, sign-out), navigation of this side's pages, and the page. */
export function Layout() {
  const { data: me } = useSuspenseQuery(sessionQuery);
  const [opened, { toggle, close }] = useDisclosure();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const signOut = useMutation({
    mutationFn: () => call(SIDE === 'tenant' ? CONSOLE_ROUTES.signOut : CONSOLE_ROUTES.operatorSignOut),
    onSettled: async () => {
      startSession(null);
      await navigate({ to: '/sign-in' });
    },
  });
  const pages = SIDE === 'operator' ? OPERATOR_PAGES : TENANT_PAGES;
  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Open navigation" />
            <Text fw={700}>{SIDE === 'operator' ? 'Gateway operator console' : `Gateway console · ${me?.tenant ?? ''}`}</Text>
          </Group>
          <Group wrap="nowrap" gap="sm">
            {me?.email && (
              <Text size="sm" visibleFrom="sm">
                {me.email} ({me.role})
              </Text>
            )}
            <ColorSchemeToggle />
            <Button size="xs" variant="outline" onClick={() => signOut.mutate()} loading={signOut.isPending}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Console pages">
        {pages.map((page) => (
          <NavLink
            key={page.to}
            label={page.label}
            variant="filled"
            active={pathname.endsWith(page.to)}
            aria-current={pathname.endsWith(page.to) ? 'page' : undefined}
            renderRoot={(props) => <Link to={page.to} {...props} onClick={close} />}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/** What the console shows for an address it does not know. */
export function NotFound() {
  return (
    <main id="main" style={{ padding: 32 }}>
      <Title order={1}>Page not found</Title>
      <Text mt="sm">
        This console has no page at this address. <Link to="/">Go to the start page</Link>.
      </Text>
    </main>
  );
}
