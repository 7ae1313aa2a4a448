export * from "./abnormal";
export * from "./changes";
export * from "./movers";
export * from "./whales";
