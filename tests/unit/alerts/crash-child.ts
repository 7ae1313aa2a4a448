// A process that matches and is killed before it delivers anything (tests/unit/alerts/restart.test.ts): it writes
// the matches, prints what it wrote, and SIGKILLs itself — no shutdown hook, no drain.
import { PrismaPg } from "@prisma/adapter-pg";
import { matchOnce } from "@/lib/alerts/match";
import { PrismaClient } from "@/lib/generated/prisma/client";

async function main(): Promise<void> {
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.argv[2] }) });
  const result = await matchOnce(db);
  const rows = await db.alertDelivery.findMany({ select: { id: true, status: true, attempts: true } });
  process.stdout.write(`${JSON.stringify({ result, rows })}\n`, () => process.kill(process.pid, "SIGKILL"));
}

void main();
