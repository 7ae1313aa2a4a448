// What the sampler reads from upstream, as one small interface: the pass is written against it, production wires it
// to lib/upstream, and tests can wrap it (to fail mid-way, or count calls).
import type { EventsPage, NormalizedHolderGroup, NormalizedPosition, NormalizedTrade } from "@/lib/upstream/types";

export interface SamplerSource {
  /** One page of open events with their markets, keyset-paged. */
  eventsPage(cursor: string | null, limit: number): Promise<EventsPage>;
  /** The global trade tape, newest first. */
  tradesPage(offset: number, limit: number): Promise<NormalizedTrade[]>;
  /** Top holders of a market, one group per outcome token. */
  holders(conditionId: string, limit: number): Promise<NormalizedHolderGroup[]>;
  /** A wallet's position in one market (for its average entry price). */
  positions(wallet: string, conditionId: string): Promise<NormalizedPosition[]>;
}
