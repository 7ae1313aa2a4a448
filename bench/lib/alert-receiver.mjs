// The alerts bench's webhook receiver (bench/alerts.ts), in its own process so that receiving never shares an event
// loop with the sender it measures. `node bench/lib/alert-receiver.mjs <port>`. Every subscription posts to
// `/s/<index>`; the receiver notes when each delivery's body ended (Date.now(), the same machine clock the bench
// stores with) and answers 204, or, for paths set down, 503 at once or nothing at all (the sender's deadline ends it).
//   GET  /__received?since=<n>  → {"receipts": [[trade id, ms, path, webhook id], ...], "next": n, "requests": {path: n}}
//   POST /__down  {"path": "/s/0", "mode": "503" | "hang" | "up"}
//   POST /__reset              forgets receipts and request counts
import http from "node:http";

const port = Number(process.argv[2]);
let receipts = [];
let requests = {};
const down = new Map();
const hanging = new Set();

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, "http://receiver");
  const body = await readBody(req);
  const at = Date.now();
  if (url.pathname === "/__received") {
    const since = Number(url.searchParams.get("since") ?? 0);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ receipts: receipts.slice(since), next: receipts.length, requests }));
    return;
  }
  if (url.pathname === "/__down") {
    const { path, mode } = JSON.parse(body);
    if (mode === "up") {
      down.delete(path);
      for (const r of hanging) r.destroy();
      hanging.clear();
    } else down.set(path, mode);
    res.end();
    return;
  }
  if (url.pathname === "/__reset") {
    receipts = [];
    requests = {};
    res.end();
    return;
  }
  requests[url.pathname] = (requests[url.pathname] ?? 0) + 1;
  const mode = down.get(url.pathname);
  if (mode === "hang") {
    hanging.add(res);
    res.on("close", () => hanging.delete(res));
    return;
  }
  if (mode === "503") {
    res.statusCode = 503;
    res.end();
    return;
  }
  let tradeId = null;
  try {
    tradeId = JSON.parse(body).data?.id ?? null;
  } catch {
    // not JSON: still a receipt
  }
  receipts.push([tradeId, at, url.pathname, req.headers["webhook-id"] ?? null]);
  res.statusCode = 204;
  res.end();
});
server.keepAliveTimeout = 1_000;
server.listen(port, "127.0.0.1", () => process.stdout.write(`listening ${port}\n`));
process.on("SIGTERM", () => process.exit(0));
