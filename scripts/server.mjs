// @ts-check
// `npm start`: the production server. Next's own `next start` cannot tell the gateway who is connected: it passes a
// client-sent X-Forwarded-For through untouched, so every per-address budget would be the client's to choose. This
// entry runs the same Next server in this process and, for every request, deletes any client-sent copy of the
// internal peer headers and sets them from the TCP connection. The proof is a random value that lives only in this
// process's memory (the gateway compares it), so a header a client sends can never pass for it
// (lib/auth/client-address.ts; TRUST_PROXY decides how forwarding headers are read on top of this).
//
// It also caps request bodies while they stream in, before Next buffers them (scripts/lib/body-cap.mjs): 413 at the
// cap, 408 for a body that does not arrive in time, each closing its connection lingering (SECURITY.md).
//
// And it lets the app write a long-lived body (the live stream) straight to Node's response once Next has answered its
// status and headers, instead of as a web stream Next pipes for the body's whole life (scripts/lib/take-body.mjs).
//
// A launcher, not application code: it reads only PORT, HOST, MAX_BODY_BYTES and BODY_TIMEOUT_MS (validated again by
// lib/env.ts inside Next).
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { bodyTimeoutMs, capBodies, maxBodyBytes } from "./lib/body-cap.mjs";
import { createBodyHandOff } from "./lib/take-body.mjs";

const PEER_HEADER = "x-predmkt-peer";
const PEER_PROOF_HEADER = "x-predmkt-peer-proof";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT || 3000);
// Loopback unless the deployment says otherwise: a demo or a laptop must not serve the whole network by default.
const hostname = process.env.HOST || "127.0.0.1";

const proof = randomBytes(32).toString("base64url");
/** @type {{ __predmktPeerProof?: string }} */ (globalThis).__predmktPeerProof = proof;

// A long-lived body (the live stream) is written by the app straight to Node's response instead of as a web stream
// that Next pipes (scripts/lib/take-body.mjs, docs/stream.md "Memory").
const handOff = createBodyHandOff();
/** @type {{ __predmktTakeBody?: typeof handOff.takeBody }} */ (globalThis).__predmktTakeBody = handOff.takeBody;

const app = next({ dev: false, dir: root, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer();
capBodies(
  server,
  (request, response) => {
    delete request.headers[PEER_HEADER];
    delete request.headers[PEER_PROOF_HEADER];
    const peer = request.socket.remoteAddress;
    if (peer) {
      request.headers[PEER_HEADER] = peer;
      request.headers[PEER_PROOF_HEADER] = proof;
    }
    handOff.run(response, () => void handle(request, response));
  },
  { maxBytes: maxBodyBytes(), timeoutMs: bodyTimeoutMs() },
);
// Slow-loris bounds: a client must send its headers within 20 s; its body has BODY_TIMEOUT_MS (the cap above), and
// Node's own limit on the whole request stays as a backstop.
server.headersTimeout = 20_000;
server.requestTimeout = 60_000;
const origin = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
server.listen(port, hostname, () => {
  // Next logs a server that failed to prepare (an invalid configuration: short secrets, a bad URL) and serves 500s
  // anyway. /api/ping does no I/O, so anything but a 200 means this process cannot serve: refuse to run, with the
  // configuration error Next printed above as the reason.
  fetch(`${origin}/api/ping`).then(
    (ping) => {
      if (ping.status === 200) return console.log(`▲ predmkt listening on ${origin}`);
      console.error(`predmkt: refusing to start: the app answers ${ping.status} (see the configuration error above)`);
      process.exit(1);
    },
    (error) => {
      console.error(`predmkt: refusing to start: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
});
