/** Console people for the browser specs: invites made through the admin API, passwords set through the console API. */
import type { ConsoleRole } from '@gateway/contracts';
import { adminClient, baseUrl, http } from './gateway';

export const PASSWORD = 'a quiet river at dawn';

/** Invites `email` to `tenant` and returns the link the operator would send. */
export async function inviteLink(tenant: string, email: string, role: ConsoleRole): Promise<string> {
  const invite = await adminClient().inviteConsoleUser({ tenant, email, role });
  return invite.link;
}

/** Invites a person and sets their password straight away (as following the link would). */
export async function personWithPassword(tenant: string, email: string, role: ConsoleRole): Promise<void> {
  const link = await inviteLink(tenant, email, role);
  const token = new URL(link).hash.replace('#token=', '');
  const accepted = await http('POST', `${baseUrl()}/console/api/invites/accept`, { headers: { origin: baseUrl() }, json: { token, password: PASSWORD } });
  if (accepted.status !== 200) throw new Error(`setting the password of ${email} failed: ${accepted.status} ${accepted.text}`);
}

/** What a console session sends: the listener's origin, the session cookie and its CSRF token. */
export interface ConsoleSignedIn {
  origin: string;
  cookie: string;
  csrf: string;
}

/** Signs in through the console API of the listener at `base` (a person's email and password, or the admin token). */
export async function signInConsole(base: string, body: { email: string; password: string } | { token: string }): Promise<ConsoleSignedIn> {
  const answer = await http('POST', `${base}/console/api/session`, { headers: { origin: base }, json: body });
  if (answer.status !== 200) throw new Error(`signing in at ${base} failed: ${answer.status} ${answer.text}`);
  const cookie = [answer.headers['set-cookie']].flat().find((c) => c?.startsWith('gw_'));
  if (cookie === undefined) throw new Error(`signing in at ${base} set no session cookie`);
  return { origin: base, cookie: cookie.split(';')[0]!, csrf: (answer.body as { csrfToken: string }).csrfToken };
}
