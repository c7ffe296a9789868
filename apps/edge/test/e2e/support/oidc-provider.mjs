// A local OpenID provider (the oidc-provider package) for the console's single sign-on spec: one
// confidential client, accounts named by the login typed at its dev login page, each with a verified
// email <login>@sso.example. Prints "ready <issuer>" once it listens. ES module: oidc-provider ships no
// CommonJS, so the spec runs this file in its own process.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const [clientId, clientSecret, redirectUri] = process.argv.slice(2);
const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], token_endpoint_auth_method: 'client_secret_basic' }],
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  cookies: { keys: ['console-sso-spec-cookie-key'] },
  async findAccount(_ctx, id) {
    return { accountId: id, claims: async () => ({ sub: id, email: `${id}@sso.example`, email_verified: true }) };
  },
});
server.on('request', provider.callback());
process.stdout.write(`ready ${issuer}\n`);
