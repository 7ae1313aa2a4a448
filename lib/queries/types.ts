// Response types of the endpoints the dashboard reads, inferred from the answer shapes and API contracts. Type-only imports: nothing
// of zod or the contracts reaches the browser bundle.
import type { z } from "zod";
import type {
  AbnormalTradeSchema,
  CategorySchema,
  ChangeSchema,
  EventDetailSchema,
  EventSchema,
  MoverSchema,
  StatsSchema,
  TradeSchema,
  WhaleSchema,
} from "@/lib/predmkt/shapes";
import type { LiveHolderGroupSchema, LiveSeriesSchema, LiveTradeSchema } from "@/lib/api/endpoints/predmkt-live";
import type { DisputedAssertionSchema, OracleSummarySchema, VoterSchema, VotingRoundSchema } from "@/lib/api/endpoints/oracle";
import type { DisputeDetailSchema, DisputeWithMarketSchema } from "@/lib/api/endpoints/oracle-disputes";

export interface Meta {
  source: "sampled" | "live" | "chain";
  as_of: string | null;
  cache?: "hit" | "miss" | "stale";
  age_s?: number;
  limit?: number;
  offset?: number;
  total?: number;
  count?: number;
  note?: string;
  [extra: string]: unknown;
}

export interface Envelope<T> {
  data: T;
  meta: Meta;
}

export type Stats = z.infer<typeof StatsSchema>;
export type Category = z.infer<typeof CategorySchema>;
export type EventSummary = z.infer<typeof EventSchema>;
export type EventDetail = z.infer<typeof EventDetailSchema>;
export type Change = z.infer<typeof ChangeSchema>;
export type Mover = z.infer<typeof MoverSchema>;
export type Trade = z.infer<typeof TradeSchema>;
export type AbnormalTrade = z.infer<typeof AbnormalTradeSchema>;
export type Whale = z.infer<typeof WhaleSchema>;
export type LiveTrade = z.infer<typeof LiveTradeSchema>;
export type LiveSeries = z.infer<typeof LiveSeriesSchema>;
export type LiveHolderGroup = z.infer<typeof LiveHolderGroupSchema>;
export type OracleSummary = z.infer<typeof OracleSummarySchema>;
export type DisputedAssertion = z.infer<typeof DisputedAssertionSchema>;
export type DisputeWithMarket = z.infer<typeof DisputeWithMarketSchema>;
export type DisputeDetail = z.infer<typeof DisputeDetailSchema>;
export type VotingRound = z.infer<typeof VotingRoundSchema>;
export type Voter = z.infer<typeof VoterSchema>;

/** What a server component hands its client component for the first paint: the body, or why there is none. */
export type Initial<T> = { ok: true; body: Envelope<T> } | { ok: false; error: { status: number; code: string; detail: string } };
