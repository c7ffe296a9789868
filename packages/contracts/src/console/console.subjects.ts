/**
 * Subjects of the console's people and sessions, answered by accounts: invites, passwords, sign-in,
 * sessions (resolved by the edge on every console call, cached there) and single sign-on.
 */
export const CONSOLE_SUBJECTS = {
  users: {
    invite: 'accounts.console.users.invite',
    inviteInfo: 'accounts.console.users.invite-info',
    acceptInvite: 'accounts.console.users.accept-invite',
    list: 'accounts.console.users.list',
  },
  sessions: {
    signIn: 'accounts.console.sessions.sign-in',
    openOperator: 'accounts.console.sessions.open-operator',
    resolve: 'accounts.console.sessions.resolve',
    signOut: 'accounts.console.sessions.sign-out',
    revoke: 'accounts.console.sessions.revoke',
    list: 'accounts.console.sessions.list',
  },
  oidc: {
    configure: 'accounts.console.oidc.configure',
    show: 'accounts.console.oidc.show',
    begin: 'accounts.console.oidc.begin',
    complete: 'accounts.console.oidc.complete',
  },
  /** The models a tenant may use, with the prices it pays. */
  models: 'accounts.console.models',
  /** Tenants page by page, with their balance: the operator console's list. */
  tenants: 'accounts.console.tenants.list',
} as const;
