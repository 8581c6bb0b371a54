import { parseUnits } from '../../core/money.ts';
import { toMmpSetting } from '../../engine/shapes.ts';
import type { MmpScope } from '../../engine/state/maker-safety.ts';
import { badRequest, notFound } from '../../contract/errors.ts';
import { errorResponses } from '../../contract/common.ts';
import {
  HEARTBEAT_TIMEOUT, HeartbeatBody, HeartbeatResponse, MmpRemoveBody, MmpSetBody, MmpSettingSchema, MmpSettingsResponse, type MmpSetRequest,
} from '../../contract/maker-safety.ts';
import type { Caller } from '../../identity/caller.ts';
import { requireCaller } from '../auth/caller.ts';
import type { AppContext } from '../context.ts';
import type { TypedApp } from '../typed-app.ts';

const security = [{ apiKey: [] }];
/**
 * Heartbeats and MMP settings are engine state, per API key: HMAC only, and the changes run on the
 * engine's node (a node without it passes them on, src/cluster), like order commands. They are not
 * counted as orders: a maker heartbeats every few seconds.
 */
const command = { auth: 'apiKey' as const, engineCommand: true };

/** Market makers' safety (EXTENSIONS.md section 15): the heartbeat dead-man's switch and market-maker protection. */
export function registerMakerSafetyRoutes(api: TypedApp, ctx: AppContext): void {
  const { engine } = ctx.trading;

  api.post('/heartbeat', {
    config: command,
    schema: {
      tags: ['market-makers'],
      summary: "Arm or refresh the calling API key's dead-man's switch: without a heartbeat before expiresAt, every open order the key placed is cancelled",
      security,
      body: HeartbeatBody,
      response: { 200: HeartbeatResponse, ...errorResponses(400, 401, 503) },
    },
  }, async (request) => {
    const { expiresAtMs } = await engine.heartbeat(keyOf(requireCaller(request)), request.body?.timeoutMs ?? HEARTBEAT_TIMEOUT.defaultMs);
    return { armed: true as const, expiresAt: new Date(expiresAtMs).toISOString() };
  });

  api.delete('/heartbeat', {
    config: command,
    schema: { tags: ['market-makers'], summary: "Disarm the calling API key's dead-man's switch", security, response: { 204: { type: 'null' }, ...errorResponses(401, 503) } },
  }, async (request, reply) => {
    await engine.disarmHeartbeat(keyOf(requireCaller(request)));
    return reply.code(204).send(null);
  });

  api.put('/mmp', {
    config: command,
    schema: {
      tags: ['market-makers'],
      summary: "Set the calling API key's market-maker protection in one market or event: when its fills there reach a limit within windowMs, its open orders there are cancelled and its new ones refused for frozenMs",
      security,
      body: MmpSetBody,
      response: { 200: MmpSettingSchema, ...errorResponses(400, 401, 404, 503) },
    },
  }, async (request) => {
    const caller = requireCaller(request);
    const scope = await knownScope(ctx, request.body.scope);
    const put = await engine.setMmp({ apiKey: keyOf(caller), userId: caller.userId, scope, ...limitsOf(request.body) });
    if (!put.ok) throw badRequest(put.message);
    return toMmpSetting(put.setting, ctx.clock.nowMs());
  });

  api.get('/mmp', {
    config: { auth: 'apiKey' },
    schema: { tags: ['market-makers'], summary: "The calling API key's market-maker protection settings, with their freezes", security, response: { 200: MmpSettingsResponse, ...errorResponses(401, 503) } },
  }, async (request) => {
    const nowMs = ctx.clock.nowMs();
    return engine.reads.mmpSettings(keyOf(requireCaller(request))).map((setting) => toMmpSetting(setting, nowMs));
  });

  api.delete('/mmp', {
    config: command,
    schema: {
      tags: ['market-makers'],
      summary: "Remove the calling API key's market-maker protection of one scope (its freeze with it)",
      security,
      body: MmpRemoveBody,
      response: { 204: { type: 'null' }, ...errorResponses(400, 401, 404, 503) },
    },
  }, async (request, reply) => {
    const scope = scopeOf(request.body.scope);
    if (!(await engine.removeMmp(keyOf(requireCaller(request)), scope))) throw notFound(`an MMP setting of this API key for ${scope.kind} ${scope.id}`);
    return reply.code(204).send(null);
  });
}

/** The auth mode guarantees an API key; the type does not. */
const keyOf = (caller: Caller): string => caller.apiKey!;

const scopeOf = (scope: { marketId: string } | { eventId: string }): MmpScope => ('marketId' in scope ? { kind: 'market', id: scope.marketId } : { kind: 'event', id: scope.eventId });

/** A scope the catalogue knows: an unknown market or event is 404, not a setting that can never trip. */
async function knownScope(ctx: AppContext, requested: { marketId: string } | { eventId: string }): Promise<MmpScope> {
  const scope = scopeOf(requested);
  const known = scope.kind === 'market' ? await ctx.trading.markets.load(scope.id) : await ctx.trading.eventMarketIds(scope.id);
  if (!known) throw notFound(`${scope.kind} ${scope.id}`);
  return scope;
}

/** The limits in base units; at least one, and none that rounds to nothing. */
function limitsOf(body: MmpSetRequest) {
  if (body.maxFills === undefined && body.maxQuantity === undefined && body.maxNotionalUsd === undefined) {
    throw badRequest('an MMP setting needs at least one limit: maxFills, maxQuantity or maxNotionalUsd');
  }
  const units = (name: string, value: string | undefined) => {
    if (value === undefined) return null;
    const amount = parseUnits(value);
    if (!amount) throw badRequest(`${name} must be above 0`);
    return amount;
  };
  return {
    windowMs: body.windowMs,
    maxFills: body.maxFills ?? null,
    maxQuantityBaseUnits: units('maxQuantity', body.maxQuantity),
    maxNotionalBaseUnits: units('maxNotionalUsd', body.maxNotionalUsd),
    frozenMs: body.frozenMs,
  };
}
