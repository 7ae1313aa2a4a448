// What the sampler reads from upstream, as one small interface: the pass is written against it, production wires it
// to lib/upstream, and tests can wrap it (to fail mid-way, or count calls).
import type { EventsPage, NormalizedHolderGroup, TradesPage } from "@/lib/upstream/types";

export interface SamplerSource {
  /** One page of open events with their markets, keyset-paged. */
  eventsPage(cursor: string | null, limit: number): Promise<EventsPage>;
  /** The global trade tape, newest first, one cursor page (`/v2/trades`); null cursor: the top of the tape. */
  tapePage(cursor: string | null, limit: number): Promise<TradesPage>;
  /** Top holders of a market, one group per outcome token. */
  holders(conditionId: string, limit: number): Promise<NormalizedHolderGroup[]>;
}
