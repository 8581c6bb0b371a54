/** Small fetch wrappers for tests: JSON in, status and parsed JSON out. */
export interface JsonResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function request<T = any>(method: string, url: string, options: { body?: unknown; headers?: Record<string, string>; rawBody?: string } = {}): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: tests see the text
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export const get = <T = any>(url: string, headers?: Record<string, string>) => request<T>('GET', url, { headers });
export const post = <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => request<T>('POST', url, { body, headers });
export const patch = <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => request<T>('PATCH', url, { body, headers });

/** Asserts the EXTENSIONS.md section 9 error body and returns it. */
export function expectError(response: JsonResponse, status: number, code?: string): void {
  if (response.status !== status) throw new Error(`expected ${status}${code ? ` ${code}` : ''}, got ${response.status}: ${JSON.stringify(response.body)}`);
  const body = response.body;
  if (typeof body !== 'object' || body === null) throw new Error(`expected an error body, got ${JSON.stringify(body)}`);
  for (const key of ['statusCode', 'error', 'code', 'message']) if (!(key in body)) throw new Error(`error body lacks ${key}: ${JSON.stringify(body)}`);
  if (body.statusCode !== status) throw new Error(`body statusCode ${body.statusCode} != ${status}`);
  if (code && body.code !== code) throw new Error(`expected code ${code}, got ${body.code}: ${body.message}`);
}
