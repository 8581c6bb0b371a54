import type { HeartbeatAnswer, MmpScope, MmpSetting, MmpSettingRequest } from '../types.ts';
import type { ClientContext } from './context.ts';

/**
 * The heartbeat dead-man's switch (EXTENSIONS.md section 15): `start(timeoutMs)` arms it and keeps
 * it alive on a timer, three beats per timeout, so one late or lost beat does not cancel the
 * key's orders but a dead process does. `stop()` stops the timer and disarms it.
 */
export function heartbeatSection(ctx: ClientContext) {
  const { transport } = ctx;
  let timer: ReturnType<typeof setInterval> | undefined;
  const beat = (timeoutMs?: number) => transport.call<HeartbeatAnswer>('POST', '/heartbeat', { auth: 'apiKey', body: timeoutMs === undefined ? {} : { timeoutMs } });
  return {
    /** One heartbeat: arms or refreshes the switch (default timeout 10 s on the server). */
    send: beat,
    /**
     * Arms the switch and refreshes it every timeoutMs / 3 until `stop()`. `onError` hears beats
     * that failed (the timer goes on: the next beat may pass); it resolves with the first answer.
     */
    async start(timeoutMs = 10_000, onError: (error: unknown) => void = () => {}): Promise<HeartbeatAnswer> {
      const first = await beat(timeoutMs);
      clearInterval(timer);
      timer = setInterval(() => { beat(timeoutMs).catch(onError); }, Math.floor(timeoutMs / 3));
      // A maker's process may end while armed: the server cancels its orders then, which is the point.
      // (Node's timers can be unref'd so the beat alone never keeps it alive; a browser's are numbers.)
      (timer as { unref?: () => void }).unref?.();
      return first;
    },
    /** Stops the timer and disarms the switch: the key's orders stay. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await transport.call<void>('DELETE', '/heartbeat', { auth: 'apiKey' });
    },
  };
}

/** Market-maker protection per API key and scope (EXTENSIONS.md section 15). */
export function mmpSection(ctx: ClientContext) {
  const { transport } = ctx;
  return {
    set: (setting: MmpSettingRequest) => transport.call<MmpSetting>('PUT', '/mmp', { auth: 'apiKey', body: setting, idempotent: true }),
    list: () => transport.call<MmpSetting[]>('GET', '/mmp', { auth: 'apiKey' }),
    remove: (scope: MmpScope) => transport.call<void>('DELETE', '/mmp', { auth: 'apiKey', body: { scope } }),
  };
}
