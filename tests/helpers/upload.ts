// The worst uploader for a server that answers before the body is read (a 413 at the body cap): it writes its whole
// body, and reads nothing until it has finished writing. A server that closes under it (rather than closing
// lingering, scripts/lib/body-cap.mjs) makes its writes fail with a reset or a broken pipe, and the answer waiting
// in its receive buffer is never read.
import net from "node:net";

export interface StubbornUpload {
  /** Everything the server sent, as text (empty when the connection failed before it was read). */
  received: string;
  status: number | null;
  /** The error the writes or the read ended with, if any. */
  error?: string;
  bytesWritten: number;
  ms: number;
}

export async function stubbornUpload(
  port: number,
  {
    bytes,
    chunked = false,
    path = "/api/auth/token",
    headers = {},
  }: { bytes: number; chunked?: boolean; path?: string; headers?: Record<string, string> },
): Promise<StubbornUpload> {
  const started = performance.now();
  // Half-open: the server's FIN does not end our side, so we go on sending, as a client busy uploading would.
  const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
  let error: string | undefined;
  socket.on("error", (e) => (error ??= (e as NodeJS.ErrnoException).code ?? String(e)));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.pause(); // nothing is read until the body is written
  const head = Object.entries({
    host: "127.0.0.1",
    ...headers,
    ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(bytes) }),
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const write = (data: string | Buffer) =>
    new Promise<boolean>((resolve) => {
      if (socket.destroyed || error) return resolve(false);
      socket.write(data, (e) => resolve(!e));
    });
  await write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 97);
  let written = 0;
  while (written < bytes) {
    const part = chunk.subarray(0, Math.min(chunk.length, bytes - written));
    if (!(await write(chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]) : part))) break;
    written += part.length;
  }
  if (chunked && written === bytes) await write("0\r\n\r\n");
  // Now read what came back.
  let received = "";
  socket.on("data", (d: Buffer) => (received += d.toString("latin1")));
  await new Promise<void>((resolve) => {
    if (socket.destroyed) return resolve();
    socket.once("end", resolve);
    socket.once("close", resolve);
    socket.resume();
  });
  socket.destroy();
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1];
  return { received, status: status ? Number(status) : null, error, bytesWritten: written, ms: performance.now() - started };
}

/** The answer's body (after the blank line) as JSON, and its headers in lower case. */
export function parseAnswer(received: string): { headers: Record<string, string>; body: unknown } {
  const [head, ...rest] = received.split("\r\n\r\n");
  const headers = Object.fromEntries(
    head
      .split("\r\n")
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  return { headers, body: JSON.parse(rest.join("\r\n\r\n")) };
}
