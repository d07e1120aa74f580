/** One HTTP request to a test server and its answer, parsed as JSON when it is JSON (the server tests share it). */

/** What a request got back: status, headers, the body as JSON (null when it is not JSON) and as text. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

/** Send `method path` to `baseUrl` with a JSON body (strings are sent as they are) and `headers`. */
export async function httpCall(baseUrl: string, method: string, path: string, body?: unknown,
  headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}
