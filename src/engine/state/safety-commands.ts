import { failure, type ApplyContext } from './apply-context.ts';
import type { CommandOf, CommandOutcomes } from './commands.ts';
import { dropLive, MMP_SETTINGS_PER_KEY, RENAME_WINDOW_MS, type MmpScope, type MmpSetting } from './maker-safety.ts';
import { cancelOrdersOfKey } from './order-commands.ts';

/** An MMP setting as the API sets it: limits and freeze, without its window or freeze state. */
export type MmpSettingInput = Omit<MmpSetting, 'frozenUntilMs' | 'fills'>;

/**
 * Market makers' safety commands (EXTENSIONS.md section 15), applied within a record: heartbeats
 * arm and disarm, cancel-on-disconnect sockets open and close, MMP settings are put and removed,
 * and the tick cancels the orders of keys whose heartbeat expired or whose last socket's grace
 * ended. Deadlines are the record's time plus a duration, so a replay reaches the same ones.
 */
export function armHeartbeat(ctx: ApplyContext, { apiKey, timeoutMs }: CommandOf<'heartbeat'>): CommandOutcomes['heartbeat'] {
  const deadlineMs = ctx.atMs + timeoutMs;
  ctx.state.safety.heartbeats.set(apiKey, deadlineMs);
  ctx.effects.safetyChanged = true;
  return { ok: true, expiresAtMs: deadlineMs };
}

export function disarmHeartbeat(ctx: ApplyContext, { apiKey }: CommandOf<'heartbeat-off'>): CommandOutcomes['heartbeat-off'] {
  const disarmed = ctx.state.safety.heartbeats.delete(apiKey);
  if (disarmed) ctx.effects.safetyChanged = true;
  return { ok: true, disarmed };
}

/** A reconnect naming a dropped socket ends that socket's grace: its orders stay. A socket naming itself confirms it is live. */
export function changeSession(ctx: ApplyContext, command: CommandOf<'session'>): CommandOutcomes['session'] {
  const { safety } = ctx.state;
  if (command.change === 'open') {
    const sessions = safety.sessionsOf(command.apiKey);
    sessions.live.add(command.sessionId);
    sessions.unconfirmed.delete(command.sessionId);
    if (command.node !== null) sessions.nodes.set(command.sessionId, command.node);
    if (command.resumes !== null) sessions.closing.delete(command.resumes);
    ctx.effects.safetyChanged = true;
  } else {
    const sessions = safety.sessions.get(command.apiKey);
    // A close of a socket the state does not hold open (adopted meanwhile) changes nothing.
    if (sessions && dropLive(sessions, command.sessionId, ctx.atMs)) ctx.effects.safetyChanged = true;
  }
  return { ok: true };
}

/**
 * A node took the engine (or the engine's node saw one leave). The sockets recorded may have gone
 * with a node that died, or closed while no engine ran to hear it, and no close of theirs will ever
 * come. A socket of a node that is gone, or that did not say its node, starts its reconnect grace
 * now, as if dropped. One of a node still `present` stays live for RENAME_WINDOW_MS, by when its
 * node must name it again (`resumes` itself), or it is dropped then: a connected maker's orders do
 * not depend on a loaded node answering within the 2 s grace.
 */
export function adoptSessions(ctx: ApplyContext, command: CommandOf<'sessions-adopted'>): CommandOutcomes['sessions-adopted'] {
  const present = new Set(command.present);
  for (const sessions of ctx.state.safety.sessions.values()) {
    for (const sessionId of [...sessions.live]) {
      const node = sessions.nodes.get(sessionId);
      if (node !== undefined && present.has(node)) sessions.unconfirmed.set(sessionId, ctx.atMs + RENAME_WINDOW_MS);
      else dropLive(sessions, sessionId, ctx.atMs);
      ctx.effects.safetyChanged = true;
    }
  }
  return { ok: true };
}

/** The tick's part: keys whose heartbeat expired, then keys left without a socket, lose their open orders. */
export function expireSafety(ctx: ApplyContext): void {
  const { safety } = ctx.state;
  for (const apiKey of safety.takeExpiredHeartbeats(ctx.atMs)) {
    ctx.effects.safetyChanged = true;
    cancelOrdersOfKey(ctx, apiKey, () => true, 'HEARTBEAT_EXPIRED');
  }
  const { ended, disconnected } = safety.takeEndedGraces(ctx.atMs);
  if (ended > 0) ctx.effects.safetyChanged = true;
  for (const apiKey of disconnected) cancelOrdersOfKey(ctx, apiKey, () => true, 'DISCONNECTED');
}

export function setMmp(ctx: ApplyContext, { setting }: CommandOf<'mmp-set'>): CommandOutcomes['mmp-set'] {
  const put = ctx.state.safety.putMmp({ ...setting, frozenUntilMs: 0, fills: [] });
  if (!put) return failure('VALIDATION_FAILED', `an API key holds at most ${MMP_SETTINGS_PER_KEY} MMP settings: remove one first`);
  ctx.effects.safetyChanged = true;
  return { ok: true, setting: put };
}

export function removeMmp(ctx: ApplyContext, { apiKey, scope }: { apiKey: string; scope: MmpScope }): CommandOutcomes['mmp-remove'] {
  const removed = ctx.state.safety.removeMmp(apiKey, scope);
  if (removed) ctx.effects.safetyChanged = true;
  return { ok: true, removed };
}
