// Keys of sampler_state: the sampler writes them, the sampled endpoints read them as their `as_of`.
/** Keys in sampler_state: the time each kind of data was last completely sampled (the endpoints' `as_of`). */
export const STATE = {
  events: "events_at",
  prices: "prices_at",
  trades: "trades_at",
  tradesWatermark: "trades_watermark",
  whales: "whales_at",
  retention: "retention_at",
  vacuumHot: "vacuum_hot_at",
  vacuumBig: "vacuum_big_at",
} as const;
