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
