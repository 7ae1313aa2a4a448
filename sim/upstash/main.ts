// npx tsx sim/upstash/main.ts [--port 8079] [--redis redis://127.0.0.1:6379] [--token local-test-token]
import { parseArgs } from "node:util";
import { startUpstashShim } from "./server";

const { values } = parseArgs({ options: { port: { type: "string" }, redis: { type: "string" }, token: { type: "string" } } });
void startUpstashShim({ port: values.port ? Number(values.port) : 8079, redisUrl: values.redis, token: values.token }).then((shim) => {
  console.log(`UPSTASH_REDIS_REST_URL=${shim.url}`);
  console.log(`UPSTASH_REDIS_REST_TOKEN=${shim.token}`);
  const stop = () => void shim.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
});
