import { useCallback, useState } from 'react';
import { errorText } from './format.ts';
import { notify, refresh } from './session.ts';

export type RunAction = (action: () => Promise<string | undefined>) => Promise<void>;

/**
 * One of the trader's or operator's actions: `busy` while it runs, then its answer (a sentence)
 * or the refusal in words as a notice, and the views that show their state reload.
 */
export function useAction(): [boolean, RunAction] {
  const [busy, setBusy] = useState(false);
  const run = useCallback<RunAction>(async (action) => {
    setBusy(true);
    try {
      const answer = await action();
      if (answer) notify(answer);
    } catch (error) {
      notify(errorText(error), 'error');
    } finally {
      setBusy(false);
      refresh();
    }
  }, []);
  return [busy, run];
}
