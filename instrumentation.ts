// Next calls register() once per server process before serving requests.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { bootServer } = await import("./lib/server/boot");
    await bootServer();
  }
}
