// Operation names for usage metering: `GET /api/predmkt/events/{slug}`, the contract's method and path template, so
// usage is counted per endpoint rather than per slug. The gateway names the requests it refuses itself (429) with
// the same names the route handlers use.
import type { EndpointContract } from "./contract";
import { allEndpoints } from "./endpoints";

const UNKNOWN_PATH_OPERATION = "/api/{path}";

export function operationName(method: string, contract: Pick<EndpointContract, "path">): string {
  return `${method} ${contract.path}`;
}

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
const templates = allEndpoints.map((contract) => ({
  path: contract.path,
  pattern: new RegExp(
    `^${contract.path
      .split(/\{[^}]+\}/)
      .map(escape)
      .join("[^/]+")}$`,
  ),
}));

/** The contract path template a request path belongs to (`/api/{path}` for unknown paths). */
export function operationPathFor(pathname: string): string {
  return templates.find((t) => t.pattern.test(pathname))?.path ?? UNKNOWN_PATH_OPERATION;
}

/** The operation a request path belongs to (`GET /api/{path}` for unknown paths, as the 404 route names them). */
export function operationForPath(method: string, pathname: string): string {
  return `${method} ${operationPathFor(pathname)}`;
}
