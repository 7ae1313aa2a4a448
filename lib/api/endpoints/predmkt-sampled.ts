import type { EndpointContract } from "../contract";

export const endpoints: EndpointContract[] = [];
