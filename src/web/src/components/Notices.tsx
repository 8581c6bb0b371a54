import { useEffect } from 'react';
import { dismissNotice, useSession } from '../session.ts';

const NOTICE_MS = 6_000;

/** The server's answers and live fills, in words, announced to screen readers too. */
export function Notices() {
  const { notices } = useSession();
  useEffect(() => {
    const timers = notices.map((notice) => setTimeout(() => dismissNotice(notice.id), NOTICE_MS));
    return () => timers.forEach(clearTimeout);
  }, [notices]);
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((notice) => (
        <button key={notice.id} type="button" className="notice" onClick={() => dismissNotice(notice.id)}>
          {notice.text}
        </button>
      ))}
    </div>
  );
}
