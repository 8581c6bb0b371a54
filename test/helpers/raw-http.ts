import { connect } from 'node:net';

/**
 * Sends `text` as is over a fresh TCP connection and resolves with what came back by the time the
 * server closed the connection, or `waitMs` passed (then `open` is true): for request-targets and
 * framings that fetch() never sends.
 */
export function rawHttp(url: string, text: string, waitMs = 5_000): Promise<{ answer: string; status: number | undefined; open: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let settled = false;
    const finish = (open: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1];
      resolve({ answer, status: status === undefined ? undefined : Number(status), open });
    };
    const timer = setTimeout(() => finish(true), waitMs);
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      // One complete answer with a body of known length is enough.
      const head = answer.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(answer)?.[1];
      if (head >= 0 && length !== undefined && answer.length - head - 4 >= Number(length)) finish(false);
    });
    socket.on('close', () => finish(false));
    socket.on('error', (error) => (settled ? undefined : answer === '' ? reject(error) : finish(false)));
    socket.write(text);
  });
}
