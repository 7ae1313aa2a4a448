// Every endpoint contract, in the order the OpenAPI document lists them. Each area owns its own file.
import type { EndpointContract } from "../contract";
import * as alerts from "./alerts";
import * as auth from "./auth";
import * as dashboard from "./dashboard";
import * as oracle from "./oracle";
import * as oracleDisputes from "./oracle-disputes";
import * as predmktLive from "./predmkt-live";
import * as predmktSampled from "./predmkt-sampled";
import * as predmktStream from "./predmkt-stream";
import * as system from "./system";
import * as wallets from "./wallets";

export const allEndpoints: EndpointContract[] = [
  ...auth.endpoints,
  ...dashboard.endpoints,
  ...predmktSampled.endpoints,
  ...predmktLive.endpoints,
  ...predmktStream.endpoints,
  ...wallets.endpoints,
  ...oracle.endpoints,
  ...oracleDisputes.endpoints,
  ...alerts.endpoints,
  ...system.endpoints,
];
