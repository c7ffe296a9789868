import { GatewayError, parseOrThrow, serviceOfSubject, type RelayParam, type RouteDef, type RouteRelay } from '@gateway/contracts';
import { NatsBus } from '@gateway/platform';
import { Injectable } from '@nestjs/common';
import type { RouteHandlerFn, RouteRequest } from '../routing/route-request';
import { RelayShapes } from './relay-shapes';
import { relaySse } from './sse-relay';

/** A path parameter's value, checked by its schema when it has one. */
function pathValue(name: string, param: RelayParam, value: string | undefined): string {
  if (!param.schema) return value ?? '';
  if (param.notFound === undefined) return parseOrThrow(param.schema, value, name);
  const parsed = param.schema.safeParse(value);
  if (!parsed.success) throw GatewayError.notFound(`No such ${param.notFound} object: ${value ?? ''}`, name);
  return parsed.data;
}

/** The payload fields a relay adds to its shape's base: fixed fields, path ids, the query. */
function relayFields(relay: RouteRelay, request: RouteRequest): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...relay.fields };
  for (const [name, param] of Object.entries(relay.params ?? {})) fields[param.field] = pathValue(name, param, request.params[name]);
  if (relay.query) fields.query = request.query;
  return fields;
}

function streams(relay: RouteRelay, request: RouteRequest): boolean {
  if (relay.reply === 'sse') return true;
  return relay.reply === 'json-or-sse' && (request.body as { stream?: unknown } | undefined)?.stream === true;
}

/**
 * Serves a pure relay route from its route-table entry: builds the bus payload (the shape's base plus
 * the relay's fields, path ids and query), sends it on the entry's subject and answers as JSON or SSE.
 */
@Injectable()
export class TableRelay {
  constructor(
    private readonly bus: NatsBus,
    private readonly shapes: RelayShapes,
  ) {}

  /** The handler of a relayed route; an entry whose relay cannot work stops start-up here. */
  handlerFor(route: RouteDef): RouteHandlerFn {
    const relay = route.relay;
    if (!relay) throw new Error(`Route ${route.id} has no relay in the route table`);
    serviceOfSubject(relay.subject);
    for (const name of Object.keys(relay.params ?? {})) {
      if (!route.path.includes(`{${name}}`)) throw new Error(`Route ${route.method} ${route.path} (${route.id}) relays a path parameter it lacks: ${name}`);
    }
    const shaper = this.shapes.of(relay.shape);
    shaper.check?.(route);
    return async (request) => {
      const fields = relayFields(relay, request);
      const payload = { ...(await shaper.base(request, relay)), ...fields };
      return streams(relay, request) ? relaySse(this.bus, relay.subject, request, payload) : shaper.answer(relay, request, payload);
    };
  }
}
