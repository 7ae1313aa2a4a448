// What an open stream keeps alive in the production server (docs/stream.md "Memory"): heap snapshots of `npm start`
// on a throwaway PostgreSQL database with N streams open and with 2N (idle: the snapshot is of what they hold, not of
// their traffic; the first N also take the one-time costs, code the JIT compiles and shapes, out of the difference),
// compared by (node type, constructor) per stream, and the objects whose properties sit in a dictionary (a hash table,
// several times a fast object's size) by what holds them. A snapshot collects first, so only live objects count.
//
//   npx tsx bench/heap-streams.ts            # 300, then 600 streams
//   BENCH_HEAP_STREAMS=500 npx tsx bench/heap-streams.ts
import http from "node:http";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild, sourceHash } from "../scripts/lib/build";

const STREAMS = Number(process.env.BENCH_HEAP_STREAMS ?? 300);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** Per (type, name): count and self size; per owner of a dictionary property store: its bytes. */
function summarize(file: string) {
  const s = JSON.parse(readFileSync(file, "utf8")) as HeapSnapshot;
  const { node_fields: nf, edge_fields: ef, node_types, edge_types } = s.snapshot.meta;
  const [types, edgeTypes] = [node_types[0], edge_types[0]];
  const [typeAt, nameAt, sizeAt, edgesAt] = ["type", "name", "self_size", "edge_count"].map((f) => nf.indexOf(f));
  const byKind = new Map<string, { count: number; bytes: number }>();
  const dictionaries = new Map<string, { count: number; bytes: number }>();
  const add = (m: typeof byKind, key: string, bytes: number) => {
    const v = m.get(key) ?? { count: 0, bytes: 0 };
    v.count++;
    v.bytes += bytes;
    m.set(key, v);
  };
  const node = (i: number) => ({ type: types[s.nodes[i + typeAt]], name: s.strings[s.nodes[i + nameAt]], size: s.nodes[i + sizeAt] });
  for (let i = 0, e = 0; i < s.nodes.length; i += nf.length) {
    const { type, name, size } = node(i);
    // Strings and code are counted by type only: their "names" are their contents.
    add(byKind, ["object", "closure", "hidden", "array", "synthetic"].includes(type) ? `${type} ${name.slice(0, 50)}` : type, size);
    for (let j = 0; j < s.nodes[i + edgesAt]; j++, e += ef.length) {
      const to = node(s.edges[e + 2]);
      if (edgeTypes[s.edges[e]] === "internal" && s.strings[s.edges[e + 1]] === "properties" && to.name === "(object properties)") {
        add(dictionaries, `${type} ${name}`, to.size);
      }
    }
  }
  return { byKind, dictionaries };
}

/** B minus A per stream, largest first. */
function perStream(a: Map<string, { count: number; bytes: number }>, b: Map<string, { count: number; bytes: number }>, top: number) {
  const rows = [...b].map(([key, v]) => {
    const u = a.get(key) ?? { count: 0, bytes: 0 };
    return { key, count: (v.count - u.count) / STREAMS, bytes: (v.bytes - u.bytes) / STREAMS };
  });
  return rows.sort((x, y) => y.bytes - x.bytes).slice(0, top);
}

async function snapshot(pid: number, dir: string): Promise<string> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  for (;;) {
    await sleep(1000);
    const file = readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (!file) continue;
    // Written in one go by the server's main thread: done once its size holds still.
    const full = path.join(dir, file);
    let size = -1;
    while (statSync(full).size === 0 || statSync(full).size !== size) {
      size = statSync(full).size;
      await sleep(2000);
    }
    return full;
  }
}

function openStream(url: string): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: { accept: "text/event-stream" } }, (response) => {
      response.resume();
      if (response.statusCode === 200) resolve(request);
      else reject(new Error(`stream answered ${response.statusCode}`));
    });
    request.on("error", reject);
  });
}

void (async () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "predmkt-heap-streams-"));
  const secrets = { JWT_SECRET: "bench-jwt-secret-0123456789abcdef0123456789", CRON_SECRET: "bench-cron-secret-0123456789abcdef0123" };
  Object.assign(process.env, secrets, { DATA_DIR: path.join(scratch, "tool") });
  delete process.env.DATABASE_URL;
  const processes = await import("./lib/processes");
  const database = await import("./lib/database");
  const distDir = path.join(".next-test", sourceHash());
  ensureBuild(distDir, (line) => console.log(line));
  const db = await database.createPostgresDatabase(`predmkt_bench_heap_${process.pid}`);
  const streams: http.ClientRequest[] = [];
  try {
    const server = await processes.startServer(
      distDir,
      {
        ...db.serverEnv,
        ...secrets,
        RATE_LIMIT_ENTERPRISE: "1000000",
        STREAM_LIMIT_ENTERPRISE: String(STREAMS * 2),
        STREAM_MAX_DURATION_S: "3600",
      },
      [`--heapsnapshot-signal=SIGUSR2`, `--diagnostic-dir=${scratch}`],
    );
    const key = await database.createKey(db.connectionString(), "enterprise");
    const url = `${server.url}/api/predmkt/stream?api_key=${key}&topics=resolution`;
    // Warm: the route compiles and the hub starts with a first stream.
    const openMore = async () => {
      for (let i = 0; i < STREAMS; i += 50) {
        streams.push(...(await Promise.all(Array.from({ length: Math.min(50, STREAMS - i) }, () => openStream(url)))));
      }
      await sleep(3000);
      return snapshot(server.pid, scratch);
    };
    const [a, b] = [summarize(await openMore()), summarize(await openMore())];
    const total = (m: Map<string, { bytes: number }>) => [...m.values()].reduce((sum, v) => sum + v.bytes, 0);
    console.log(
      `live heap per stream: ${((total(b.byKind) - total(a.byKind)) / STREAMS / 1024).toFixed(1)} KB (${STREAMS} → ${2 * STREAMS} streams)`,
    );
    console.log("largest kinds per stream (bytes, objects):");
    for (const r of perStream(a.byKind, b.byKind, 25))
      console.log(`  ${r.bytes.toFixed(0).padStart(6)} B  ${r.count.toFixed(2).padStart(6)}  ${r.key}`);
    console.log("dictionary-mode property stores per stream, by owner (bytes, objects):");
    for (const r of perStream(a.dictionaries, b.dictionaries, 8))
      console.log(`  ${r.bytes.toFixed(0).padStart(6)} B  ${r.count.toFixed(2).padStart(6)}  ${r.key}`);
  } finally {
    for (const s of streams) s.destroy();
    await processes.stopAll();
    await db.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
})();
