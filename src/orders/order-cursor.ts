import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../contract/errors.ts';

/** Where a page of `/orders/paginated` ended: the last row's keyset and its one-based position. */
export interface OrderCursor {
  createdAtMs: number;
  /** The row's `book_seq` (engine acceptance order), as a decimal string. */
  bookSeq: string;
  /** One-based index of the last row already returned. */
  position: number;
  order: 'ASC' | 'DESC';
}

/**
 * Opaque, server-issued cursors: the keyset is signed with a per-deployment secret, so a cursor
 * the server did not issue (or one edited by hand) is refused with 400 rather than trusted.
 */
export class OrderCursorCodec {
  constructor(private readonly secret: string) {}

  encode(cursor: OrderCursor): string {
    const payload = Buffer.from(JSON.stringify([cursor.createdAtMs, cursor.bookSeq, cursor.position, cursor.order])).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  decode(text: string): OrderCursor {
    const [payload, signature, ...rest] = text.split('.');
    if (!payload || !signature || rest.length > 0 || !this.verify(payload, signature)) throw badRequest('cursor was not issued by this server');
    const [createdAtMs, bookSeq, position, order] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [number, string, number, 'ASC' | 'DESC'];
    return { createdAtMs, bookSeq, position, order };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  private verify(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
