import { useEffect, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { dismissNotice, useSession, type Notice } from '../session.ts';

const NOTICE_MS = 6_000;

/**
 * Removes a notice; when it held the focus, the focus goes to the next notice's (else the
 * previous one's) Dismiss, else to the page's content, not lost to the document's body.
 */
function dismiss(id: number, event: MouseEvent | KeyboardEvent): void {
  const notice = (event.currentTarget as HTMLElement).closest('.notice');
  if (notice?.contains(document.activeElement)) {
    // Both regions' notices, in the order shown: the errors' region is above the others'.
    const shown = [...document.querySelectorAll('.notices .notice')];
    const at = shown.indexOf(notice);
    const neighbour = shown[at + 1] ?? shown[at - 1];
    (neighbour?.querySelector('button') ?? document.getElementById('main'))?.focus();
  }
  dismissNotice(id);
}

/**
 * One notice, gone after NOTICE_MS counted from when it was said (each has its own timer: one
 * timer set for all, again on every change, kept older notices up while new ones came), but not
 * while the pointer or the focus is on it (WCAG 2.2.1). Its Dismiss, or Escape on it, removes it.
 */
function NoticeItem({ notice }: { notice: Notice }) {
  const [held, setHeld] = useState({ pointer: false, focus: false });
  const paused = held.pointer || held.focus;
  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => dismissNotice(notice.id), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice.id, paused]);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the pointer over it only holds its timer; the keyboard's way is its button, which holds it too
    <div
      className={`notice ${notice.kind}`}
      data-testid="notice"
      onMouseEnter={() => setHeld((was) => ({ ...was, pointer: true }))}
      onMouseLeave={() => setHeld((was) => ({ ...was, pointer: false }))}
    >
      <span>{notice.text}{notice.count > 1 && ` ×${notice.count}`}</span>
      <button
        type="button"
        className="ghost icon"
        aria-label={`Dismiss: ${notice.text}`}
        onClick={(event) => dismiss(notice.id, event)}
        onKeyDown={(event) => event.key === 'Escape' && dismiss(notice.id, event)}
        onFocus={() => setHeld((was) => ({ ...was, focus: true }))}
        onBlur={() => setHeld((was) => ({ ...was, focus: false }))}
      >×</button>
    </div>
  );
}

/**
 * The server's answers and live fills, in words, announced to screen readers too: refusals at once
 * (role=alert), the rest when the reader is idle (role=status); one polite region for both let a
 * refusal wait behind whatever was being read. Both regions are always there, empty or not: a live
 * region added with its words is not announced by every screen reader. Not atomic: a new notice is
 * announced alone, not with the older ones still shown. Together they are the "Notices" landmark,
 * first in the page after the skip link (App.tsx): the keyboard reaches a notice's Dismiss before
 * the header, and a screen reader lists the landmark first; after the page's main, a notice that
 * expires in seconds was reached only past every control of the page.
 */
export function Notices() {
  const { notices } = useSession();
  const of = (kind: Notice['kind']) => notices.filter((notice) => notice.kind === kind).map((notice) => <NoticeItem key={notice.id} notice={notice} />);
  return (
    <section className="notices" aria-label="Notices">
      <div role="alert" aria-atomic="false">{of('error')}</div>
      <div role="status" aria-live="polite" aria-atomic="false">{of('info')}</div>
    </section>
  );
}
