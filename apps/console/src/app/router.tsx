import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import { SignInErrorCode, SignInNoticeCode } from '@gateway/contracts/console';
import { z } from 'zod';
import { queryClient, SIDE, sessionQuery } from '../api/session';
import { Layout, NotFound } from './layout';

/** Where a signed-in person lands on this side. */
const HOME = SIDE === 'operator' ? '/tenants' : '/overview';

const rootRoute = createRootRoute({ component: Outlet, notFoundComponent: NotFound });

/** Only codes the page owns a sentence for: anything else in the address is dropped, never shown. */
const SignInSearch = z.object({ error: SignInErrorCode.optional().catch(undefined), notice: SignInNoticeCode.optional().catch(undefined) });

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: SignInSearch,
  component:
    SIDE === 'operator'
      ? lazyRouteComponent(() => import('../pages/operator-sign-in.page'), 'OperatorSignInPage')
      : lazyRouteComponent(() => import('../pages/sign-in.page'), 'SignInPage'),
});

const setPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'set-password',
  component: lazyRouteComponent(() => import('../pages/set-password.page'), 'SetPasswordPage'),
});

/** Every page past sign-in: no session, back to the sign-in page. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async () => {
    const me = await queryClient.ensureQueryData(sessionQuery);
    if (!me) throw redirect({ to: '/sign-in' });
  },
  component: Layout,
});

const onlyOn = (side: typeof SIDE) => () => {
  if (SIDE !== side) throw redirect({ to: HOME });
};

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: HOME });
  },
});

const keysRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'keys',
  beforeLoad: onlyOn('tenant'),
  component: lazyRouteComponent(() => import('../pages/keys.page'), 'KeysPage'),
});

const projectsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'projects',
  beforeLoad: onlyOn('tenant'),
  component: lazyRouteComponent(() => import('../pages/projects.page'), 'ProjectsPage'),
});

const webhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'webhooks',
  beforeLoad: onlyOn('tenant'),
  component: lazyRouteComponent(() => import('../pages/webhooks.page'), 'WebhooksPage'),
});

const modelsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'models',
  beforeLoad: onlyOn('tenant'),
  component: lazyRouteComponent(() => import('../pages/models.page'), 'ModelsPage'),
});

const tenantsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'tenants',
  beforeLoad: onlyOn('operator'),
  component: lazyRouteComponent(() => import('../pages/tenants.page'), 'TenantsPage'),
});

const overviewRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'overview',
  beforeLoad: onlyOn('tenant'),
  component: lazyRouteComponent(() => import('../pages/overview.page'), 'OverviewPage'),
});

const usageRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'usage',
  beforeLoad: onlyOn('tenant'),
  component: lazyRouteComponent(() => import('../pages/usage.page'), 'UsagePage'),
});

const tasksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'tasks',
  beforeLoad: onlyOn('tenant'),
  component: lazyRouteComponent(() => import('../pages/tasks.page'), 'TasksPage'),
});

const tenantDetailRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'tenants/$slug',
  beforeLoad: onlyOn('operator'),
  component: lazyRouteComponent(() => import('../pages/tenant-detail.page'), 'TenantDetailPage'),
});

const catalogRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'catalog',
  beforeLoad: onlyOn('operator'),
  component: lazyRouteComponent(() => import('../pages/catalog.page'), 'CatalogPage'),
});

const deadLettersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'dead-letters',
  beforeLoad: onlyOn('operator'),
  component: lazyRouteComponent(() => import('../pages/dead-letters.page'), 'DeadLettersPage'),
});

const queuesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'queues',
  beforeLoad: onlyOn('operator'),
  component: lazyRouteComponent(() => import('../pages/queues.page'), 'QueuesPage'),
});

const reconciliationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'reconciliation',
  beforeLoad: onlyOn('operator'),
  component: lazyRouteComponent(() => import('../pages/reconciliation.page'), 'ReconciliationPage'),
});

const operatorRoutes = [tenantDetailRoute, catalogRoute, deadLettersRoute, queuesRoute, reconciliationRoute];

const routeTree = rootRoute.addChildren([
  signInRoute,
  setPasswordRoute,
  appRoute.addChildren([
    indexRoute,
    keysRoute,
    projectsRoute,
    webhooksRoute,
    modelsRoute,
    tenantsRoute,
    overviewRoute,
    usageRoute,
    tasksRoute,
    ...operatorRoutes,
  ]),
]);

export const router = createRouter({ routeTree, basepath: '/console', defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
