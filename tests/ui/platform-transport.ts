/**
 * The web app's request wrapper talking to the REAL platform in the same process: fetch becomes
 * app.inject. jsdom's FormData (an upload) is encoded as multipart bytes first, since Node's
 * Response cannot read it. `onCall` hears each named method called.
 */
import type { FastifyInstance } from 'fastify';

/** jsdom's FormData as the multipart bytes app.inject can carry. */
export async function multipart(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const boundary = `----ui-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      const file = value as File;
      const bytes = Buffer.from(await readBlob(file));
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name || 'blob'}"\r\nContent-Type: ${file.type || 'application/octet-stream'}\r\n\r\n`));
      chunks.push(bytes, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function readBlob(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/** A fetch for setFetchForTests that answers from the platform app. */
export function injectFetch(app: FastifyInstance, onCall?: (method: string) => void) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input), 'http://platform.test');
    onCall?.(url.search.slice(1));
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    let payload: string | Buffer = init?.body as string;
    if (init?.body instanceof FormData) {
      const encoded = await multipart(init.body);
      payload = encoded.body;
      headers['content-type'] = encoded.contentType;
    }
    const res = await app.inject({ method: 'POST', url: `${url.pathname}${url.search}`, headers, payload });
    // a 204 or 304 has no body (the Response constructor refuses one)
    const bodyless = res.statusCode === 204 || res.statusCode === 304;
    return new Response(bodyless ? null : res.body, { status: res.statusCode, headers: { 'content-type': 'application/json' } });
  };
}
