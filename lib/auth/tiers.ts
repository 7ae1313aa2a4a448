import { env } from "@/lib/env";

export const TIERS = ["starter", "pro", "enterprise"] as const;
export type Tier = (typeof TIERS)[number];

/** Requests per sliding 60-second window. Starter's 300 is promotional (regular 60): set RATE_LIMIT_STARTER. */
export function tierLimit(tier: Tier): number {
  switch (tier) {
    case "starter":
      return env.RATE_LIMIT_STARTER;
    case "pro":
      return env.RATE_LIMIT_PRO;
    case "enterprise":
      return env.RATE_LIMIT_ENTERPRISE;
  }
}

export const RATE_LIMIT_WINDOW_S = 60;
