// The Microsoft identity platform as ClientSecretCredential (MSAL) reaches it with `authorityHost` set to
// the sandbox: the tenant's OpenID configuration, then the client-credentials token endpoint. Controls
// under /_sandbox/azure-identity set the token lifetime, make the endpoint fail, and count issued tokens.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AzureTokenIssuer, SANDBOX_AZURE_CLIENT_ID, SANDBOX_AZURE_CLIENT_SECRET, SANDBOX_AZURE_TENANT } from './azure-token-issuer';

const TokenForm = z.object({
  grant_type: z.string(),
  client_id: z.string(),
  client_secret: z.string().optional(),
  scope: z.string().optional(),
});

const IssuerControl = z
  .object({ expiresIn: z.number().int().positive().optional(), failWith: z.number().int().min(400).max(599).nullable().optional() })
  .strict();

function identityError(error: string, description: string, code: number): Record<string, unknown> {
  return { error, error_description: `AADSTS${code}: ${description}`, error_codes: [code], timestamp: new Date().toISOString() };
}

export function registerAzureIdentityRoutes(app: FastifyInstance, issuer: AzureTokenIssuer): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.get<{ Params: { tenant: string } }>('/:tenant/v2.0/.well-known/openid-configuration', async (request, reply) => {
    const { tenant } = request.params;
    if (tenant !== SANDBOX_AZURE_TENANT) return reply.code(400).send(identityError('invalid_tenant', `Tenant '${tenant}' not found.`, 90002));
    const base = `${request.protocol}://${request.host}/${tenant}`;
    return {
      token_endpoint: `${base}/oauth2/v2.0/token`,
      authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
      issuer: `${base}/v2.0`,
      jwks_uri: `${base}/discovery/v2.0/keys`,
      token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
      response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
      tenant_region_scope: 'NA',
    };
  });

  app.post<{ Params: { tenant: string } }>('/:tenant/oauth2/v2.0/token', async (request, reply) => {
    if (issuer.settings.failWith !== null) {
      return reply.code(issuer.settings.failWith).send(identityError('temporarily_unavailable', 'The token service is unavailable.', 50196));
    }
    if (request.params.tenant !== SANDBOX_AZURE_TENANT) return reply.code(400).send(identityError('invalid_request', 'Tenant not found.', 90002));
    const form = TokenForm.safeParse(request.body);
    if (!form.success || form.data.grant_type !== 'client_credentials') {
      return reply.code(400).send(identityError('unsupported_grant_type', 'Only client_credentials is served here.', 70003));
    }
    if (form.data.client_id !== SANDBOX_AZURE_CLIENT_ID) {
      return reply.code(400).send(identityError('unauthorized_client', `Application with identifier '${form.data.client_id}' was not found.`, 700016));
    }
    if (form.data.client_secret !== SANDBOX_AZURE_CLIENT_SECRET) {
      return reply.code(401).send(identityError('invalid_client', 'Invalid client secret provided.', 7000215));
    }
    if (!form.data.scope?.split(' ').includes('https://cognitiveservices.azure.com/.default')) {
      return reply.code(400).send(identityError('invalid_scope', 'The scope is not valid for this resource.', 70011));
    }
    const { token, expiresIn } = issuer.issue();
    return { token_type: 'Bearer', expires_in: expiresIn, ext_expires_in: expiresIn, access_token: token };
  });

  app.get('/_sandbox/azure-identity', async () => ({ issued: issuer.issued, ...issuer.settings }));
  app.put('/_sandbox/azure-identity', async (request, reply) => {
    const control = IssuerControl.safeParse(request.body);
    if (!control.success) return reply.code(400).send({ error: z.prettifyError(control.error) });
    issuer.settings = { ...issuer.settings, ...control.data };
    return { issued: issuer.issued, ...issuer.settings };
  });
  app.post('/_sandbox/azure-identity/reset', async () => {
    issuer.reset();
    return { ok: true };
  });
}
