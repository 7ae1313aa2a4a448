// Summarises a .cpuprofile (bench/lib/cpu-profile.mjs): self time by function and by where the code lives, so a
// figure that misses its goal can say where its time goes. Usage: npx tsx bench/profile-summary.ts <file> [top=25]
import { readFileSync } from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export function summarize(profile: Profile, top = 25) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const where = (url: string) => {
    if (!url) return "(native/GC/idle)";
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (m) return m[1];
    if (url.startsWith("node:")) return "node core";
    if (/\.next|chunks|server\//.test(url)) return "app (bundled)";
    return url
      .replace(/^file:\/\//, "")
      .split("/")
      .slice(-2)
      .join("/");
  };
  const fn = new Map<string, number>();
  const area = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const key = `${functionName || "(anonymous)"} ${where(url)}:${lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const place = where(url) + (functionName.startsWith("(") ? ` ${functionName}` : "");
    area.set(place, (area.get(place) ?? 0) + us);
  }
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => ({ what: k, ms: Math.round(us / 1000), pct: Math.round((us / total) * 1000) / 10 }));
  return {
    wall_ms: Math.round((profile.endTime - profile.startTime) / 1000),
    sampled_ms: Math.round(total / 1000),
    by_area: rank(area),
    by_function: rank(fn),
  };
}

if (process.argv[2]) {
  const result = summarize(JSON.parse(readFileSync(process.argv[2], "utf8")) as Profile, Number(process.argv[3] ?? 25));
  console.log(`wall ${result.wall_ms} ms, sampled ${result.sampled_ms} ms`);
  console.table(result.by_area);
  console.table(result.by_function);
}
