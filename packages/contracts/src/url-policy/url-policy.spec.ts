import { configureUrlPolicy, normaliseAllowHost, urlProblem } from './url-policy';
import { UrlPolicyAllowHosts } from './url-policy.schema';

/** [url, what the refusal must say]: every way of writing an internal target we know of. */
const REFUSED: ReadonlyArray<readonly [string, RegExp]> = [
  // schemes
  ['http://example.com/a.png', /http:\/\//],
  ['http://127.0.0.1:8090/a.png', /http:\/\//],
  ['file:///etc/passwd', /local file paths/],
  ['javascript:alert(1)', /javascript: URLs/],
  ['ftp://example.com/a.png', /ftp: URLs/],
  ['gopher://127.0.0.1:6379/_INFO', /gopher: URLs/],
  ['https:127.0.0.1/a.png', /https:\/\/<host>/],
  ['https:/127.0.0.1/a.png', /https:\/\/<host>/],
  ['//127.0.0.1/a.png', /local file paths/],
  // loopback in every notation
  ['https://127.0.0.1/', /loopback address \(127\.0\.0\.1\)/],
  ['https://127.0.0.1:8443/x', /loopback/],
  ['https://127.255.255.254/', /loopback/],
  ['https://2130706433/', /loopback address \(127\.0\.0\.1\)/],
  ['https://0x7f000001/', /loopback address \(127\.0\.0\.1\)/],
  ['https://0x7F000001/', /loopback/],
  ['https://0x7f.0.0.1/', /loopback/],
  ['https://0x7f.1/', /loopback/],
  ['https://0177.0.0.1/', /loopback/],
  ['https://017700000001/', /loopback/],
  ['https://0177.1/', /loopback/],
  ['https://127.1/', /loopback/],
  ['https://127.0.1/', /loopback/],
  ['https://127.0.0.1./', /loopback/],
  ['https://１２７.０.０.１/', /loopback/],
  ['https://[::1]/', /loopback address \(::1\)/],
  ['https://[0:0:0:0:0:0:0:1]/', /loopback/],
  ['https://[::ffff:127.0.0.1]/', /loopback address \(127\.0\.0\.1, embedded in ::ffff:7f00:1\)/],
  ['https://[::ffff:7f00:1]/', /loopback/],
  ['https://[0:0:0:0:0:ffff:127.0.0.1]/', /loopback/],
  ['https://[::127.0.0.1]/', /loopback/],
  ['https://[::ffff:0:127.0.0.1]/', /loopback/],
  ['https://[64:ff9b::127.0.0.1]/', /loopback/],
  ['https://[2002:7f00:1::]/', /loopback address \(127\.0\.0\.1, embedded in 2002:7f00:1::\)/],
  // unspecified, private, CGNAT, link-local, metadata
  ['https://0.0.0.0/', /unspecified/],
  ['https://0/', /unspecified/],
  ['https://[::]/', /unspecified/],
  ['https://10.0.0.2/x.png', /private address \(10\.0\.0\.2\)/],
  ['https://0xa000002/x.png', /private/],
  ['https://172.16.0.1/', /private/],
  ['https://172.31.255.255/', /private/],
  ['https://192.168.1.1/', /private/],
  ['https://3232235777/', /private address \(192\.168\.1\.1\)/],
  ['https://[::ffff:192.168.1.1]/', /private/],
  ['https://[::ffff:c0a8:101]/', /private/],
  ['https://[64:ff9b::10.0.0.1]/', /private address \(10\.0\.0\.1, embedded in 64:ff9b::a00:1\)/],
  ['https://[2002:c0a8:0101::1]/', /private/],
  ['https://100.64.0.1/', /CGNAT/],
  ['https://100.127.255.254/', /CGNAT/],
  ['https://169.254.1.1/', /link-local/],
  ['https://[fe80::1]/', /link-local/],
  ['https://[fe80::1%25eth0]/', /zone id/],
  ['https://[febf::1]/', /link-local/],
  ['https://169.254.169.254/latest/meta-data', /cloud metadata address \(169\.254\.169\.254\)/],
  ['https://2852039166/latest/meta-data', /cloud metadata/],
  ['https://0xa9fea9fe/', /cloud metadata/],
  ['https://0251.0376.0251.0376/', /cloud metadata/],
  ['https://169.254.43518/', /cloud metadata/],
  ['https://[::ffff:169.254.169.254]/', /cloud metadata/],
  ['https://[fd00:ec2::254]/latest/meta-data', /cloud metadata address \(fd00:ec2::254\)/],
  ['https://100.100.100.200/latest/meta-data', /cloud metadata address \(100\.100\.100\.200\)/],
  ['https://169.254.170.2/v2/credentials', /cloud metadata/],
  ['https://192.0.0.192/opc/v2/instance', /cloud metadata/],
  // other special-purpose ranges
  ['https://[fc00::1]/', /unique-local/],
  ['https://[fd12:3456::1]/', /unique-local/],
  ['https://[fec0::1]/', /site-local/],
  ['https://224.0.0.1/', /multicast/],
  ['https://239.255.255.250/', /multicast/],
  ['https://[ff02::1]/', /multicast/],
  ['https://240.0.0.1/', /reserved/],
  ['https://255.255.255.255/', /broadcast/],
  ['https://192.0.2.10/', /documentation/],
  ['https://198.51.100.7/', /documentation/],
  ['https://203.0.113.9/', /documentation/],
  ['https://[2001:db8::1]/', /documentation/],
  ['https://[3fff::1]/', /documentation/],
  ['https://198.18.0.1/', /benchmarking/],
  ['https://192.0.0.8/', /protocol-assignment/],
  ['https://[2001::1]/', /Teredo/],
  ['https://[100::1]/', /discard-only/],
  ['https://[64:ff9b:1::1]/', /NAT64/],
  ['https://[::2:1]/', /unspecified/],
  ['https://[4000::1]/', /reserved/],
  // names
  ['https://localhost/', /names this machine/],
  ['https://LOCALHOST/', /names this machine/],
  ['https://localhost./', /names this machine/],
  ['https://localhost../', /names this machine/],
  ['https://api.localhost/', /names this machine/],
  ['https://localhost.localdomain/', /\.localdomain/],
  ['https://printer.local/', /\.local\b/],
  ['https://metadata.google.internal/computeMetadata/v1/', /\.internal/],
  ['https://instance-data.ec2.internal/', /\.internal/],
  ['https://instance-data/', /single-label/],
  ['https://metadata/', /single-label/],
  ['https://intranet/', /\.intranet/],
  ['https://files/', /single-label/],
  ['https://router.home.arpa/', /home\.arpa/],
  ['https://1.0.0.127.in-addr.arpa/', /\.arpa/],
  ['https://nas.lan/', /\.lan/],
  ['https://%6c%6fcalhost/', /percent-encoded/],
  ['https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/', /names this machine/],
  ['https://127.0.0.1.nip.io/', /nip\.io/],
  ['https://app.localtest.me/', /localtest\.me/],
  ['https://a..example.com/', /empty label/],
  // parser tricks
  ['https://public.example@127.0.0.1/', /credentials/],
  ['https://user:pass@example.com/', /credentials/],
  ['https://example.com@169.254.169.254/', /credentials/],
  ['https://@127.0.0.1/', /credentials/],
  ['https://127.0.0.1\\@example.com/', /backslash/],
  ['https://example.com\\@127.0.0.1/', /backslash/],
  ['https://exa mple.com/', /spaces or control/],
  ['https://127.0.0.1\t/', /spaces or control/],
  ['https://127.0.0.\n1/', /spaces or control/],
  ['https://0127.0.0.1/', /dotted decimal \(87\.0\.0\.1\)/],
  ['https://134744072/', /dotted decimal \(8\.8\.8\.8\)/],
  ['https://8.8.2056/', /dotted decimal/],
  ['https://08.0.0.1/', /not a valid URL/],
  ['https:///a.png', /needs a host/],
  ['https://:443/a.png', /needs a host|not a valid URL/],
];

const ACCEPTED = [
  'https://example.com/a.png',
  'HTTPS://EXAMPLE.COM/a.png',
  'https://example.com./a.png',
  'https://cdn.example.org:8443/img/cat.jpg?size=large#top',
  'https://8.8.8.8/x',
  'https://1.1.1.1/',
  'https://172.32.0.1/',
  'https://100.128.0.1/',
  'https://[2001:4860:4860::8888]/x.png',
  'https://[2606:4700:4700::1111]/',
  'https://[::ffff:8.8.8.8]/',
  'https://[2002:808:808::1]/',
  'https://bücher.de/cover.png',
  'https://storage.googleapis.com/bucket/a%20b.png',
];

describe('url policy', () => {
  afterEach(() => configureUrlPolicy({ allowHosts: [] }));

  it('knows at least 40 bypass forms', () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(40);
  });

  it.each(REFUSED)('refuses %s', (url, reason) => {
    expect(urlProblem(url)).toMatch(reason);
    expect(urlProblem(url, { data: 'image' })).not.toBeNull();
  });

  it.each(ACCEPTED)('accepts %s', (url) => {
    expect(urlProblem(url)).toBeNull();
  });

  it('takes an image data URL only where the field allows it', () => {
    const png = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    expect(urlProblem(png, { data: 'image' })).toBeNull();
    expect(urlProblem(png)).toMatch(/data URLs are not accepted/);
    expect(urlProblem('data:text/plain;base64,aGk=', { data: 'image' })).toMatch(/data:image/);
    expect(urlProblem('data:image/png;base64,not base64!', { data: 'image' })).toMatch(/base64/);
    expect(urlProblem('iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB', { data: 'image' })).toMatch(/bare base64/);
  });

  it('lets the operator allow internal hosts by exact name, address or *.suffix', () => {
    configureUrlPolicy({ allowHosts: ['images.corp', '10.0.0.5', '*.svc.cluster.internal', '::1', 'Metadata.'] });
    expect(urlProblem('https://images.corp/a.png')).toBeNull();
    expect(urlProblem('https://IMAGES.CORP./a.png')).toBeNull();
    expect(urlProblem('https://10.0.0.5/a.png')).toBeNull();
    expect(urlProblem('https://0xa000005/a.png')).toBeNull();
    expect(urlProblem('https://[::1]:8443/a.png')).toBeNull();
    expect(urlProblem('https://metadata/')).toBeNull();
    expect(urlProblem('https://cdn.svc.cluster.internal/a.png')).toBeNull();
    // exact means exact: neighbours, parents and other schemes stay refused
    expect(urlProblem('https://svc.cluster.internal/a.png')).toMatch(/\.internal/);
    expect(urlProblem('https://10.0.0.6/a.png')).toMatch(/private/);
    expect(urlProblem('https://x.images.corp/a.png')).toMatch(/\.corp/);
    expect(urlProblem('http://images.corp/a.png')).toMatch(/http:\/\//);
    expect(urlProblem('https://user@images.corp/a.png')).toMatch(/credentials/);
  });

  it('reads the allowlist setting, refusing entries that are not hosts', () => {
    expect(UrlPolicyAllowHosts.parse(undefined)).toEqual([]);
    expect(UrlPolicyAllowHosts.parse(' a.corp , *.b.internal,,127.0.0.1 ')).toEqual(['a.corp', '*.b.internal', '127.0.0.1']);
    expect(UrlPolicyAllowHosts.safeParse('https://a.corp/x').success).toBe(false);
    expect(() => normaliseAllowHost('a b')).toThrow(/'a b'/);
  });
});
