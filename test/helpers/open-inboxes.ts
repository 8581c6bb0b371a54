import { connectInbox, type Inbox } from '../realtime/helpers.ts';

/** The sockets a describe block connects, kept so that its after hook closes every one (closeAll). */
export class OpenInboxes {
  private readonly opened: Inbox[] = [];

  /** Connects as connectInbox does, and keeps the inbox to close. */
  async connect(...args: Parameters<typeof connectInbox>): Promise<Inbox> {
    const inbox = await connectInbox(...args);
    this.opened.push(inbox);
    return inbox;
  }

  closeAll(): void {
    for (const inbox of this.opened) inbox.close();
  }
}
