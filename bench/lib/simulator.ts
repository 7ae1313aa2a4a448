// A simulator process (startSimulatorProcess, or one the caller runs) as the benches that start a worker beside it
// see it: the upstream settings that point the app's REST reads and both websockets at it, and its control API.

/** POLYMARKET_* for an app or worker reading everything (REST, market channel, RTDS) from the simulator at `simUrl`. */
export function simulatorUpstreamEnv(simUrl: string): Record<string, string> {
  const ws = simUrl.replace(/^http/, "ws");
  return {
    POLYMARKET_GAMMA_URL: `${simUrl}/gamma`,
    POLYMARKET_DATA_URL: `${simUrl}/data`,
    POLYMARKET_CLOB_URL: `${simUrl}/clob`,
    POLYMARKET_CLOB_WS_URL: `${ws}/ws/market`,
    POLYMARKET_RTDS_URL: `${ws}/rtds`,
  };
}

/** The simulator's control API (`/__sim…`, sim/polymarket/README.md), its answer read as JSON. */
export function simulatorControl(simUrl: string) {
  return (p: string, method = "GET", body?: unknown) =>
    fetch(`${simUrl}/__sim${p}`, { method, body: body === undefined ? undefined : JSON.stringify(body) }).then(
      (r) => r.json() as Promise<Record<string, unknown>>,
    );
}
