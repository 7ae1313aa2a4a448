// Polymarket's upstream bodies, one module per host; shared scalars and the item-by-item list parser in scalars.ts.
export * from "./clob";
export * from "./data";
export * from "./gamma";
