// A plain HTTP client for tests that need what fetch cannot do: a chosen source address (a second loopback client,
// 127.0.0.2) or a chunked body of a chosen size.
import http from "node:http";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const UPLOAD_PACE_MS = 5;

export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; localAddress?: string; chunks?: Buffer[] } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? "GET", headers: options.headers, localAddress: options.localAddress },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (d: Buffer) => parts.push(d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString("utf8") }));
        res.on("error", reject);
      },
    );
    // A server that answers before the body is sent (a 413 at the cap) closes the connection under a body still being
    // written: a write error after the answer has arrived is expected, not a failure.
    let answered = false;
    req.on("response", () => (answered = true));
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    if (!options.chunks) return void req.end();
    // Written one chunk at a time with no Content-Length: Node sends Transfer-Encoding: chunked.
    const chunks = [...options.chunks];
    // Paced like an upload over a network (a chunk every few milliseconds), and no chunk once the server has answered,
    // as a client that reads while it sends would.
    const pump = () => {
      if (answered) return;
      const chunk = chunks.shift();
      if (!chunk) return void req.end();
      if (req.write(chunk)) setTimeout(pump, UPLOAD_PACE_MS);
      else req.once("drain", pump);
    };
    pump();
  });
}
