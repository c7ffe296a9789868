import { GatewayError, parseOrThrow, relayedAdminRoute, rpc } from '@gateway/contracts';
import { connectNats, NatsBus, NatsRpcTransport, RethrowFilter, RpcHandler } from '@gateway/platform';
import { Controller, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import Fastify, { type FastifyInstance } from 'fastify';
import type { NatsConnection } from 'nats';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { registerAdminTable, type AdminHandlers } from './admin-table';

/** A route added the documented way: a subject with its shapes, a handler for it, an entry relaying to it. */
const GreetRequest = z.object({ tenant: z.string().min(1), shout: z.coerce.boolean().optional() }).strict();
const Greeting = z.object({ greeting: z.string() });
const GREET = rpc('accounts.fixture.greet', GreetRequest, Greeting);
const FIXTURE_ROUTES = {
  greet: relayedAdminRoute({ method: 'GET', path: '/admin/fixture/greet', input: 'query', request: GreetRequest, reply: Greeting }, GREET),
};

@Controller()
class GreetHandler {
  @RpcHandler(GREET)
  greet(@Payload() payload: unknown) {
    const { tenant, shout } = parseOrThrow(GreetRequest, payload);
    if (tenant === 'nobody') throw GatewayError.notFound(`No tenant '${tenant}'.`, 'tenant');
    const greeting = `hello ${tenant}`;
    return { greeting: shout ? greeting.toUpperCase() : greeting };
  }
}

@Module({ controllers: [GreetHandler] })
class GreetModule {}

describe('an admin route added to a table, over real NATS', () => {
  const prefix = `a${randomBytes(4).toString('hex')}.`;
  let connection: NatsConnection;
  let service: INestMicroservice;
  let fastify: FastifyInstance;

  beforeAll(async () => {
    connection = await connectNats('nats://127.0.0.1:4222', 'admin-table-spec');
    service = await NestFactory.createMicroservice(GreetModule, { strategy: new NatsRpcTransport(connection, prefix, 'accounts'), logger: false });
    service.useGlobalFilters(new RethrowFilter());
    await service.listen();
    fastify = Fastify();
    fastify.setErrorHandler((error, _request, reply) =>
      reply
        .code(error instanceof GatewayError ? (error.code === 'not_found' ? 404 : 400) : 500)
        .send({ code: (error as GatewayError).code, param: (error as GatewayError).param }),
    );
    registerAdminTable(fastify, new NatsBus(connection, prefix), {} as AdminHandlers, FIXTURE_ROUTES);
  });

  afterAll(async () => {
    await fastify?.close();
    await service?.close();
    await connection?.drain();
  });

  it('relays the parsed input to the handler and answers with its reply', async () => {
    const answer = await fastify.inject({ method: 'GET', url: '/admin/fixture/greet?tenant=acme&shout=1' });
    expect([answer.statusCode, answer.json()]).toEqual([200, { greeting: 'HELLO ACME' }]);
  });

  it("refuses bad input at the edge naming the field, and carries the service's own refusal", async () => {
    const bad = await fastify.inject({ method: 'GET', url: '/admin/fixture/greet?tenant=' });
    expect([bad.statusCode, bad.json()]).toEqual([400, { code: 'invalid_request', param: 'tenant' }]);
    const missing = await fastify.inject({ method: 'GET', url: '/admin/fixture/greet?tenant=nobody' });
    expect([missing.statusCode, missing.json()]).toEqual([404, { code: 'not_found', param: 'tenant' }]);
  });
});
