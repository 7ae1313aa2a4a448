// A minimal server-sent-events client for tests: reads a fetch body, parses `event:`/`id:`/`data:` blocks and
// comment lines, and lets a test await a condition instead of sleeping.
export interface SseMessage {
  event: string;
  id: string | null;
  data: Record<string, unknown>;
  /** When this client parsed the message (Date.now()). */
  receivedAt: number;
}

export interface SseClient {
  status: number;
  headers: Headers;
  messages: SseMessage[];
  comments: string[];
  retry: number | null;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  waitFor(predicate: (messages: SseMessage[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient & { body?: unknown }> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
  const client: SseClient & { body?: unknown } = {
    status: res.status,
    headers: res.headers,
    messages: [],
    comments: [],
    retry: null,
    ended: Promise.resolve(),
    waitFor: async () => undefined,
    close: () => abort.abort(),
  };
  if (!(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    client.body = await res.json();
    return client;
  }
  const waiters = new Set<() => void>();
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  client.ended = (async () => {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = "message";
          let id: string | null = null;
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) client.comments.push(line.slice(1).trim());
            else if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("id: ")) id = line.slice(4);
            else if (line.startsWith("data: ")) data.push(line.slice(6));
            else if (line.startsWith("retry: ")) client.retry = Number(line.slice(7));
          }
          if (data.length) client.messages.push({ event, id, data: JSON.parse(data.join("\n")), receivedAt: Date.now() });
          for (const w of waiters) w();
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    } finally {
      for (const w of waiters) w();
    }
  })();
  let ended = false;
  client.ended.finally(() => (ended = true)).catch(() => undefined);
  client.waitFor = (predicate, timeoutMs = 30_000, what = "condition") =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (predicate(client.messages)) {
          cleanup();
          resolve();
        } else if (ended) {
          cleanup();
          reject(new Error(`stream ended before ${what} (${client.messages.length} messages)`));
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what} (${client.messages.length} messages)`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return client;
}
