// Shared helpers of the oracle tests: a handler caller that passes the gateway, a fresh in-memory database (so a scan
// starts from nothing), and an RPC proxy that can be switched off or made to hang.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import { NextRequest } from "next/server";
import { afterAll } from "vitest";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { signGatewayHeader } from "@/lib/auth/gateway";
import type { Db } from "@/lib/db/client";
import { applyMigrations, pgliteMigrationTarget } from "@/lib/db/migrate";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { detach } from "@/tests/helpers/detach";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export async function callHandler(handler: Handler, path: string) {
  const id = randomUUID();
  const request = new NextRequest(`http://localhost${path}`, {
    headers: { "x-request-id": id, "x-predmkt-gateway": signGatewayHeader({ keyId: "test", tier: "pro", via: "api_key" }, id) },
  });
  const response = await handler(request, { params: Promise.resolve({}) });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

// Creating and migrating a PGlite costs seconds of CPU (initdb in WASM); emptying one costs a tenth of that. So a
// file's fresh databases come from a pool: a closed one is kept, and handed out again with every table truncated and
// every identity restarted, which is the state the migrations leave (they insert no rows: checked once per file).
const idle: PGlite[] = [];
let truncateAll: string | null = null;

async function migrated(): Promise<PGlite> {
  // From the run's migrated template when there is one (tests/helpers/pglite-template.ts); the migrations add the rest.
  const pglite = await PGlite.create(env.PGLITE_TEMPLATE ? { loadDataDir: new Blob([readFileSync(env.PGLITE_TEMPLATE)]) } : undefined);
  await applyMigrations(pgliteMigrationTarget(pglite));
  if (truncateAll === null) {
    const tables = (
      await pglite.query<{ name: string }>(
        `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
      )
    ).rows.map((r) => r.name);
    const rows = await pglite.query<{ n: number }>(`SELECT (${tables.map((t) => `(SELECT count(*) FROM ${t})`).join(" + ")})::int AS n`);
    if (rows.rows[0].n !== 0) throw new Error("the migrations insert rows: an emptied database is no longer a fresh one");
    truncateAll = `TRUNCATE ${tables.join(", ")} RESTART IDENTITY CASCADE`;
  }
  return pglite;
}

afterAll(async () => {
  while (idle.length) await idle.pop()!.close();
});

export async function freshDb(): Promise<{ db: Db; close: () => Promise<void> }> {
  const reused = idle.pop();
  if (reused) await reused.exec(truncateAll!);
  const pglite = reused ?? (await migrated());
  const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) as never });
  let closed = false;
  return {
    db,
    close: async () => {
      if (closed) return;
      closed = true;
      await db.$disconnect();
      idle.push(pglite);
    },
  };
}

/** A loopback JSON-RPC proxy in front of anvil: `up` forwards, `down` refuses connections' requests, `hang` never answers. */
export async function startRpcProxy(target: string) {
  let mode: "up" | "down" | "hang" = "up";
  const hanging = new Set<http.ServerResponse>();
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (mode === "down") return void res.socket?.destroy();
    if (mode === "hang") return void hanging.add(res);
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: Buffer.concat(chunks) });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  };
  const server = http.createServer(detach(handle));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (next: "up" | "down" | "hang") => (mode = next),
    close: async () => {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
