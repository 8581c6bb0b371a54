import type { IncomingMessage } from 'node:http';

/**
 * SOCKETS_PER_ADDRESS: how many Socket.IO connections one client address may hold open on this
 * node. The address is the one REST counts (`clientAddress`: with TRUST_PROXY the rightmost
 * X-Forwarded-For entry not added by a trusted proxy). Two handshakes racing at the bound may both pass: the bound is a guard
 * against floods, not an exact quota.
 */
export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();

  constructor(private readonly limit: number, private readonly clientAddress: (request: IncomingMessage) => string) {}

  admits(request: IncomingMessage): boolean {
    return this.limit === 0 || (this.open.get(this.addressOf(request)) ?? 0) < this.limit;
  }

  /** Counts an accepted connection until it closes. */
  opened(connection: { request: IncomingMessage; once(event: 'close', listener: () => void): void }): void {
    const address = this.addressOf(connection.request);
    this.open.set(address, (this.open.get(address) ?? 0) + 1);
    connection.once('close', () => {
      const left = (this.open.get(address) ?? 1) - 1;
      if (left <= 0) this.open.delete(address);
      else this.open.set(address, left);
    });
  }

  private addressOf(request: IncomingMessage): string {
    return this.clientAddress(request);
  }
}
