import { http, type Transport } from 'viem';

/**
 * A batching HTTP transport to the chain's URL as it is at each request. The embedded anvil is
 * restarted on its old port when it dies, or on another when that one was taken meanwhile: a
 * client made once (the settlement senders keep theirs from the engine's start) still reaches it.
 */
export function httpFollowing(url: () => string): Transport {
  return (parameters) => {
    let current: { url: string; transport: ReturnType<Transport> } | undefined;
    const now = () => {
      const at = url();
      if (current?.url !== at) current = { url: at, transport: http(at, { batch: true })(parameters) };
      return current.transport;
    };
    const first = now();
    return { ...first, request: ((args, options) => now().request(args, options)) as typeof first.request };
  };
}
