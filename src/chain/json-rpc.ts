/** One JSON-RPC call over HTTP; throws on a transport error, a timeout or an error answer. */
export async function callJsonRpc<T>(url: string, method: string, params: readonly unknown[] = [], timeoutMs = 2_000): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const answer = (await response.json()) as { result?: T; error?: { message?: string } };
  if (answer.error !== undefined || !('result' in answer)) throw new Error(`${method} failed: ${answer.error?.message ?? `HTTP ${response.status}`}`);
  return answer.result as T;
}
