// Host names that lead into the operator's own network whatever DNS says elsewhere: this machine,
// local and internal zones, single labels (resolved through search domains, as `metadata` and
// `instance-data` are in clouds), and public names that resolve to an address of one's choosing.

/** Zones that are never public (special-use names, zones clouds and routers use inside a network). */
const LOCAL_ZONES = ['localdomain', 'local', 'internal', 'intranet', 'lan', 'home', 'corp', 'home.arpa', 'arpa', 'test', 'invalid', 'example'];

/** Public names whose answers are private addresses by design (`127.0.0.1.nip.io`, `*.localtest.me`). */
const REBINDING_ZONES = ['localtest.me', 'lvh.me', 'vcap.me', 'nip.io', 'sslip.io', 'xip.io'];

function inZone(host: string, zone: string): boolean {
  return host === zone || host.endsWith(`.${zone}`);
}

/** Why a (lowercase, trailing-dot-free) domain name is not a public host, or null when it may be. */
export function hostNameProblem(host: string): string | null {
  if (host.split('.').some((label) => label === '')) return `the host '${host}' has an empty label`;
  if (inZone(host, 'localhost')) return `the host '${host}' names this machine`;
  const local = LOCAL_ZONES.find((zone) => inZone(host, zone));
  if (local) return `the host '${host}' is in the local or internal zone .${local}`;
  if (!host.includes('.')) return `the host '${host}' is a single-label name, not a public one`;
  const rebinding = REBINDING_ZONES.find((zone) => inZone(host, zone));
  if (rebinding) return `the host '${host}' is under ${rebinding}, which resolves names to chosen (often private) addresses`;
  return null;
}
