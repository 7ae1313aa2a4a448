// Event templates: each turns a seeded Rng and an end date into a realistic event draft (title, tags, markets).
import {
  AI_LABS,
  ARTISTS,
  BIG_COMPANIES,
  CITIES,
  COINS,
  COMPANIES_FOR_STOCKS,
  CONFLICTS,
  COUNTRIES,
  F1_DRIVERS,
  FIRST_NAMES,
  IPO_COMPANIES,
  LAST_NAMES,
  LEADERS,
  LEAGUES,
  MONTHS,
  MOVIES,
  POLICY_ITEMS,
  PRODUCTS,
  TENNIS_EVENTS,
  TENNIS_PLAYERS,
  US_STATES,
} from "./names";
import type { Rng } from "./random";

export interface EventDraft {
  title: string;
  category: string;
  subTags: string[];
  kind: "binary" | "multi";
  description: string;
  resolutionSource: string;
  /** Binary events: outcome labels (default Yes/No). */
  outcomes?: [string, string];
  /** Multi-market events: one market per item (groupItemTitle). */
  items?: string[];
  question?: (item: string) => string;
  /** Crypto "Up or Down" style recurring markets carry crypto fees. */
  feeType?: string | null;
  extra?: Record<string, unknown>;
}

export interface Template {
  category: string;
  kind: "binary" | "multi";
  /** Days from the world anchor to the end date, for open events. */
  horizon: [number, number];
  weight: number;
  /** "…in <Month>?" / "…end of <Month>?" events end when their month does (applied to open events). */
  endOfMonth?: boolean;
  /** The event's own fields; its category and kind are the template's, its resolution source "" unless given. */
  build(
    rng: Rng,
    endMs: number,
    anchorMs: number,
  ): Omit<EventDraft, "category" | "kind" | "resolutionSource"> & { resolutionSource?: string };
}

/** First instant of the month after the one containing `ms`. */
export function monthEnd(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

function dateLabel(endMs: number, anchorMs: number): string {
  const end = new Date(endMs);
  const sameYear = end.getUTCFullYear() === new Date(anchorMs).getUTCFullYear();
  return `${MONTHS[end.getUTCMonth()]} ${end.getUTCDate()}${sameYear ? "" : `, ${end.getUTCFullYear()}`}`;
}
const monthOf = (endMs: number) => MONTHS[new Date(endMs).getUTCMonth()];
const yearOf = (endMs: number) => new Date(endMs).getUTCFullYear();

function person(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}
function people(rng: Rng, n: number): string[] {
  const out = new Set<string>();
  while (out.size < n) out.add(person(rng));
  return [...out];
}

function yesNo(condition: string, source: string): string {
  return (
    `This market will resolve to "Yes" if ${condition}. Otherwise, this market will resolve to "No".\n\n` +
    `The resolution source for this market will be ${source}.`
  );
}

function money(value: number): string {
  if (value >= 1000) return `$${Math.round(value).toLocaleString("en-US")}`;
  if (value >= 10) return `$${Math.round(value)}`;
  return `$${value.toFixed(2)}`;
}

function priceLadder(rng: Rng, base: number): string[] {
  const step = niceStep(base * 0.025);
  const count = rng.int(7, 11);
  const center = Math.round(base / step) * step;
  const low = center - step * Math.floor((count - 2) / 2);
  const items = [`<${money(low)}`];
  for (let i = 0; i < count - 2; i++) items.push(`${money(low + i * step)}-${money(low + (i + 1) * step)}`);
  items.push(`>${money(low + (count - 2) * step)}`);
  return items;
}
function niceStep(raw: number): number {
  const pow = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / pow;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * pow;
}

export const TEMPLATES: Template[] = [
  // ---------------------------------------------------------------- politics
  {
    category: "politics",
    kind: "multi",
    horizon: [120, 900],
    weight: 3,
    build(rng, endMs) {
      const office = rng.pick(["Governor", "Senate", "Mayoral", "Attorney General"]);
      const state = rng.pick(US_STATES);
      const year = yearOf(endMs);
      const items = people(rng, rng.int(5, 12));
      return {
        title: `${state} ${office} Election Winner ${year}`,
        subTags: ["elections", "congress"],
        description: yesNo(
          `the named candidate wins the ${year} ${state} ${office.toLowerCase()} election`,
          "a consensus of credible reporting and official results",
        ),
        items,
        question: (c) => `Will ${c} win the ${year} ${state} ${office.toLowerCase()} election?`,
        extra: { countryName: "U.S.", electionType: office },
      };
    },
  },
  {
    category: "politics",
    kind: "multi",
    horizon: [300, 1000],
    weight: 2,
    build(rng, endMs) {
      const party = rng.pick(["Democratic", "Republican"]);
      const year = yearOf(endMs) + (yearOf(endMs) % 4 === 0 ? 0 : 4 - (yearOf(endMs) % 4));
      const role = rng.pick(["Presidential Nominee", "VP Nominee", "Senate Leader"]);
      return {
        title: `${party} ${role} ${year}`,
        subTags: ["us-presidential-election", "primaries", "elections"],
        description: yesNo(
          `the named individual becomes the ${year} ${party} ${role.toLowerCase()}`,
          "a consensus of official party sources",
        ),
        items: people(rng, rng.int(8, 15)),
        question: (c) => `Will ${c} be the ${year} ${party} ${role.toLowerCase()}?`,
        extra: { countryName: "U.S.", electionType: `${party} Nomination` },
      };
    },
  },
  {
    category: "politics",
    kind: "binary",
    horizon: [10, 400],
    weight: 5,
    build(rng, endMs, anchorMs) {
      const item = rng.pick(POLICY_ITEMS);
      const verb = rng.pick(["pass", "happen", "be signed into law", "be announced"]);
      const title = `Will ${item} ${verb} by ${dateLabel(endMs, anchorMs)}?`;
      return {
        title,
        subTags: ["congress", "trump"],
        description: yesNo(`${item} will ${verb} by ${dateLabel(endMs, anchorMs)}, 11:59 PM ET`, "official government sources"),
      };
    },
  },
  {
    category: "politics",
    kind: "binary",
    horizon: [20, 500],
    weight: 3,
    build(rng, endMs, anchorMs) {
      const who = person(rng);
      const role = rng.pick(["Fed Chair", "Secretary of State", "Attorney General", "Speaker of the House", "White House Chief of Staff"]);
      return {
        title: `Will ${who} be confirmed as ${role} by ${dateLabel(endMs, anchorMs)}?`,
        subTags: ["trump", "congress"],
        description: yesNo(`${who} is confirmed as ${role} by ${dateLabel(endMs, anchorMs)}`, "official U.S. Senate records"),
      };
    },
  },
  // ---------------------------------------------------------------- crypto
  {
    category: "crypto",
    kind: "multi",
    horizon: [1, 30],
    weight: 5,
    build(rng, endMs, anchorMs) {
      const coin = rng.pick(COINS);
      return {
        title: `${coin.name} price on ${dateLabel(endMs, anchorMs)}?`,
        subTags: [coin.tag, "crypto-prices", "recurring"],
        resolutionSource: `https://www.binance.com/en/trade/${coin.ticker}_USDT`,
        description: `This market will resolve according to the Binance 1 minute candle for ${coin.ticker}/USDT 12:00 in the ET timezone (noon) on ${dateLabel(endMs, anchorMs)}. The market resolves to the range that contains the final "Close" price.`,
        items: priceLadder(rng, coin.price * (0.85 + rng.next() * 0.3)),
        question: (r) =>
          `Will the price of ${coin.name} be ${r.startsWith("<") ? "less than " + r.slice(1) : r.startsWith(">") ? "greater than " + r.slice(1) : "between " + r.replace("-", " and ")} on ${dateLabel(endMs, anchorMs)}?`,
      };
    },
  },
  {
    category: "crypto",
    kind: "binary",
    horizon: [1, 120],
    weight: 5,
    build(rng, endMs, anchorMs) {
      const coin = rng.pick(COINS);
      const target = coin.price * rng.pick([0.7, 0.8, 0.9, 1.1, 1.25, 1.5, 2]);
      const up = target > coin.price;
      const title = `Will ${coin.name} ${up ? "reach" : "dip to"} ${money(target)} by ${dateLabel(endMs, anchorMs)}?`;
      return {
        title,
        subTags: [coin.tag, "crypto-prices"],
        resolutionSource: `https://www.binance.com/en/trade/${coin.ticker}_USDT`,
        description: yesNo(
          `any Binance 1 minute candle for ${coin.ticker}/USDT has a ${up ? "High" : "Low"} price ${up ? "equal to or above" : "equal to or below"} ${money(target)} before ${dateLabel(endMs, anchorMs)}, 11:59 PM ET`,
          "Binance",
        ),
      };
    },
  },
  {
    category: "crypto",
    kind: "binary",
    horizon: [0, 2],
    weight: 3,
    build(rng, endMs) {
      const coin = rng.pick(COINS.slice(0, 3));
      const end = new Date(endMs);
      const hour = end.getUTCHours();
      const label = `${MONTHS[end.getUTCMonth()]} ${end.getUTCDate()}, ${((hour + 11) % 12) + 1}${hour < 12 ? "AM" : "PM"} ET`;
      return {
        title: `${coin.name} Up or Down - ${label}`,
        subTags: [coin.tag, "recurring"],
        outcomes: ["Up", "Down"],
        feeType: "crypto_fees",
        resolutionSource: `https://data.chain.link/streams/${coin.ticker.toLowerCase()}-usd`,
        description: `This market will resolve to "Up" if the ${coin.name} price at the end of the time range specified in the title is greater than or equal to the price at the beginning of that range. Otherwise, it will resolve to "Down".`,
      };
    },
  },
  // ---------------------------------------------------------------- sports
  {
    category: "sports",
    kind: "multi",
    horizon: [40, 300],
    weight: 4,
    build(rng) {
      const league = rng.pick(LEAGUES);
      const teams = rng.sample(league.teams, rng.int(8, 15));
      return {
        title: `${league.name} Champion ${league.season}`,
        subTags: [league.tag],
        description: yesNo(`the listed team wins the ${league.season} ${league.name} championship`, `the official ${league.name} website`),
        items: teams,
        question: (t) => `Will the ${t} win the ${league.season} ${league.name} championship?`,
      };
    },
  },
  {
    category: "sports",
    kind: "multi",
    horizon: [5, 200],
    weight: 2,
    build(rng, endMs) {
      const tennis = rng.chance(0.5);
      const name = tennis ? `${rng.pick(TENNIS_EVENTS)} Men's Winner ${yearOf(endMs)}` : `F1 Drivers' Champion ${yearOf(endMs)}`;
      const pool = tennis ? TENNIS_PLAYERS : F1_DRIVERS;
      return {
        title: name,
        subTags: [tennis ? "tennis" : "f1"],
        description: yesNo(`the listed competitor is the ${name}`, "the official results"),
        items: rng.sample(pool, rng.int(6, 12)),
        question: (p) => `Will ${p} be the ${name}?`,
      };
    },
  },
  {
    category: "sports",
    kind: "binary",
    horizon: [0, 14],
    weight: 6,
    build(rng, endMs, anchorMs) {
      const league = rng.pick(LEAGUES);
      const [home, away] = rng.sample(league.teams, 2);
      return {
        title: `${home} vs. ${away}`,
        subTags: [league.tag],
        outcomes: [home, away],
        description: `In the upcoming ${league.name} game, scheduled for ${dateLabel(endMs, anchorMs)}: If the ${home} win, the market will resolve to "${home}". If the ${away} win, the market will resolve to "${away}".`,
      };
    },
  },
  {
    category: "sports",
    kind: "binary",
    horizon: [30, 250],
    weight: 2,
    build(rng) {
      const league = rng.pick(LEAGUES);
      const player = person(rng);
      const award = rng.pick(["MVP", "Rookie of the Year", "top scorer", "Defensive Player of the Year"]);
      return {
        title: `Will ${player} win ${league.name} ${award} ${league.season}?`,
        subTags: [league.tag],
        description: yesNo(`${player} is named the ${league.season} ${league.name} ${award}`, `the official ${league.name} announcement`),
      };
    },
  },
  // ---------------------------------------------------------------- economy
  {
    category: "economy",
    kind: "multi",
    horizon: [10, 200],
    weight: 3,
    build(rng, endMs) {
      const month = monthOf(endMs);
      return {
        title: `Fed decision in ${month}${rng.chance(0.3) ? ` ${yearOf(endMs)}` : ""}?`,
        subTags: ["fed-rates"],
        resolutionSource: "https://www.federalreserve.gov/monetarypolicy/openmarket.htm",
        description: `This market will resolve to the amount of basis points the upper bound of the target federal funds rate is changed by versus the level it was prior to the Federal Reserve's ${month} meeting.`,
        items: ["75+ bps decrease", "50 bps decrease", "25 bps decrease", "No change", "25+ bps increase"],
        question: (i) =>
          i === "No change"
            ? `No change in Fed interest rates after ${month} meeting?`
            : `Fed ${i.replace("decrease", "decrease").toLowerCase()} after ${month} meeting?`,
      };
    },
  },
  {
    category: "economy",
    kind: "multi",
    horizon: [20, 120],
    weight: 2,
    build(rng, endMs) {
      const month = monthOf(endMs);
      const metric = rng.pick(["CPI inflation (YoY)", "Unemployment rate", "Core PCE (YoY)"]);
      const base = metric.startsWith("Unemployment") ? 4.1 : 2.7;
      const items: string[] = [`≤${(base - 0.4).toFixed(1)}%`];
      for (let i = -3; i <= 3; i++) items.push(`${(base + i * 0.1).toFixed(1)}%`);
      items.push(`≥${(base + 0.4).toFixed(1)}%`);
      return {
        title: `${metric} for ${month}?`,
        subTags: metric.startsWith("Unemployment") ? ["jobs"] : ["inflation"],
        resolutionSource: "https://www.bls.gov/",
        description: `This market will resolve according to the official ${metric} figure for ${month} as first released by the U.S. government.`,
        items,
        question: (i) => `Will ${metric} for ${month} be ${i}?`,
      };
    },
  },
  {
    category: "economy",
    kind: "binary",
    horizon: [30, 420],
    weight: 3,
    build(rng, endMs, anchorMs) {
      const q = rng.pick([
        `US recession in ${yearOf(endMs)}?`,
        `Will the Fed cut rates in ${monthOf(endMs)}?`,
        `Will US GDP growth exceed ${rng.pick(["2%", "2.5%", "3%"])} in Q${1 + Math.floor(new Date(endMs).getUTCMonth() / 3)}?`,
        `Will gas prices average above $${rng.pick(["3.50", "3.75", "4.00"])} by ${dateLabel(endMs, anchorMs)}?`,
        `Will the 10-year Treasury yield close above ${rng.pick(["4.5%", "5%", "5.5%"])} by ${dateLabel(endMs, anchorMs)}?`,
      ]);
      return {
        title: q,
        subTags: [rng.pick(["recession", "fed-rates", "inflation"])],
        description: yesNo(`the condition in the title is met by ${dateLabel(endMs, anchorMs)}`, "official U.S. government data"),
      };
    },
  },
  // ---------------------------------------------------------------- tech
  {
    category: "tech",
    kind: "multi",
    horizon: [10, 200],
    weight: 3,
    endOfMonth: true,
    build(rng, endMs) {
      const best = rng.chance(0.6);
      const title = best
        ? `Which company has best AI model end of ${monthOf(endMs)}?`
        : `Largest company in the world end of ${yearOf(endMs)}?`;
      const pool = best ? AI_LABS : BIG_COMPANIES;
      return {
        title,
        subTags: best ? ["ai", "openai"] : ["big-tech", "stocks"],
        resolutionSource: best ? "https://lmarena.ai/leaderboard/text" : "",
        description: best
          ? `This market will resolve according to the company that owns the top model on the LMArena text leaderboard at the end of ${monthOf(endMs)}.`
          : `This market will resolve to the company with the largest market capitalization at market close on the last trading day of ${yearOf(endMs)}.`,
        items: rng.sample(pool, rng.int(6, pool.length)),
        question: (c) =>
          best
            ? `Will ${c} have the best AI model at the end of ${monthOf(endMs)}?`
            : `Will ${c} be the largest company in the world at the end of ${yearOf(endMs)}?`,
      };
    },
  },
  {
    category: "tech",
    kind: "binary",
    horizon: [14, 400],
    weight: 4,
    build(rng, endMs, anchorMs) {
      const [company, product] = rng.pick(PRODUCTS);
      return {
        title: `Will ${company} release ${product} by ${dateLabel(endMs, anchorMs)}?`,
        subTags: rng.chance(0.5) ? ["ai"] : ["big-tech"],
        description: yesNo(
          `${company} publicly releases ${product} by ${dateLabel(endMs, anchorMs)}, 11:59 PM ET`,
          `official information from ${company}`,
        ),
      };
    },
  },
  // ---------------------------------------------------------------- pop culture
  {
    category: "pop-culture",
    kind: "multi",
    horizon: [30, 330],
    weight: 3,
    build(rng, endMs) {
      const kind = rng.pick(["Best Picture", "Best Actor", "Top Spotify Artist", "Album of the Year"]);
      const year = yearOf(endMs);
      const pool = kind === "Best Picture" ? MOVIES : kind === "Best Actor" ? people(rng, 10) : ARTISTS;
      const title =
        kind === "Top Spotify Artist"
          ? `Top Spotify Artist ${monthOf(endMs)} ${year}?`
          : kind === "Album of the Year"
            ? `Grammys ${year}: Album of the Year`
            : `Oscars ${year}: ${kind} Winner`;
      return {
        title,
        subTags: kind === "Best Picture" || kind === "Best Actor" ? ["movies", "awards"] : ["music"],
        description: yesNo(`the listed nominee wins (${title})`, "the official announcement"),
        items: rng.sample(pool, rng.int(5, Math.min(10, pool.length))),
        question: (n) => `Will ${n} win ${title.replace(/\?$/, "")}?`,
      };
    },
  },
  {
    category: "pop-culture",
    kind: "binary",
    horizon: [7, 300],
    weight: 4,
    build(rng, endMs, anchorMs) {
      const artist = rng.pick(ARTISTS);
      const q = rng.pick([
        `Will ${artist} release a new album by ${dateLabel(endMs, anchorMs)}?`,
        `Will ${artist} announce a world tour by ${dateLabel(endMs, anchorMs)}?`,
        `Will "${rng.pick(MOVIES)}" gross over $${rng.pick([50, 80, 100, 150])}M opening weekend?`,
        `Will ${artist} perform at the Super Bowl halftime show?`,
      ]);
      return {
        title: q,
        subTags: ["music", "celebrities"],
        description: yesNo("the event in the title happens before the market's end date", "credible reporting"),
      };
    },
  },
  // ---------------------------------------------------------------- geopolitics
  {
    category: "geopolitics",
    kind: "binary",
    horizon: [14, 400],
    weight: 5,
    build(rng, endMs, anchorMs) {
      if (rng.chance(0.5)) {
        const [a, b, tag] = rng.pick(CONFLICTS);
        return {
          title: `${a} x ${b} ceasefire by ${dateLabel(endMs, anchorMs)}?`,
          subTags: [tag],
          description: yesNo(
            `there is an official ceasefire agreement between ${a} and ${b} by ${dateLabel(endMs, anchorMs)}`,
            "a consensus of credible reporting",
          ),
        };
      }
      const [leader, role, tag] = rng.pick(LEADERS);
      return {
        title: `${leader} out as ${role} by ${dateLabel(endMs, anchorMs)}?`,
        subTags: [tag],
        description: yesNo(
          `${leader} ceases to be ${role} for any reason by ${dateLabel(endMs, anchorMs)}`,
          "a consensus of credible reporting",
        ),
      };
    },
  },
  {
    category: "geopolitics",
    kind: "multi",
    horizon: [60, 900],
    weight: 3,
    build(rng, endMs) {
      const country = rng.pick(COUNTRIES);
      const role = rng.pick(["Presidential Election Winner", "Next Prime Minister", "Parliamentary Election: Largest Party"]);
      const items = role.includes("Party")
        ? rng.sample(
            ["Social Democrats", "Conservatives", "Liberals", "Greens", "Nationalists", "Centre Party", "Left Alliance", "Reform Party"],
            rng.int(5, 8),
          )
        : people(rng, rng.int(5, 11));
      return {
        title: `${country} ${role}${role.startsWith("Next") ? "?" : ` ${yearOf(endMs)}`}`,
        subTags: ["world-elections", "elections"],
        description: yesNo(
          `the listed option is the ${role.toLowerCase()} of ${country}`,
          "official election results and credible reporting",
        ),
        items,
        question: (x) =>
          `Will ${x} ${role.includes("Party") ? "win the most seats in" : "win"} the ${country} ${role.toLowerCase().replace("next ", "")}?`,
        extra: { countryName: country, electionType: role },
      };
    },
  },
  // ---------------------------------------------------------------- weather
  {
    category: "weather",
    kind: "multi",
    horizon: [0, 6],
    weight: 4,
    build(rng, endMs, anchorMs) {
      const city = rng.pick(CITIES);
      const base = 30 + rng.int(0, 55);
      const items = [`${base - 1}°F or below`];
      for (let i = 0; i < rng.int(4, 8); i++) items.push(`${base + i * 2}-${base + i * 2 + 1}°F`);
      items.push(`${base + (items.length - 1) * 2}°F or higher`);
      return {
        title: `Highest temperature in ${city} on ${dateLabel(endMs, anchorMs)}?`,
        subTags: ["temperature"],
        resolutionSource: "https://www.wunderground.com/",
        description: `This market will resolve to the temperature range that contains the highest temperature recorded in ${city} on ${dateLabel(endMs, anchorMs)}, as reported by Weather Underground.`,
        items,
        question: (r) => `Will the highest temperature in ${city} be ${r} on ${dateLabel(endMs, anchorMs)}?`,
      };
    },
  },
  {
    category: "weather",
    kind: "binary",
    horizon: [5, 300],
    weight: 2,
    build(rng, endMs, anchorMs) {
      const q = rng.pick([
        `Will a Category ${rng.int(3, 5)} hurricane make landfall in the US by ${dateLabel(endMs, anchorMs)}?`,
        `Will ${yearOf(endMs)} be the hottest year on record?`,
        `Will ${rng.pick(CITIES)} see snow by ${dateLabel(endMs, anchorMs)}?`,
      ]);
      return {
        title: q,
        subTags: ["hurricanes", "climate"],
        resolutionSource: "https://www.noaa.gov/",
        description: yesNo("the event in the title happens before the market's end date", "NOAA"),
      };
    },
  },
  // ---------------------------------------------------------------- business
  {
    category: "business",
    kind: "binary",
    horizon: [1, 200],
    weight: 5,
    build(rng, endMs, anchorMs) {
      const [company, price] = rng.pick(COMPANIES_FOR_STOCKS);
      const q = rng.chance(0.6)
        ? `Will ${company} close above $${Math.round(price * rng.pick([0.9, 1, 1.1, 1.2]))} on ${dateLabel(endMs, anchorMs)}?`
        : rng.chance(0.5)
          ? `Will ${rng.pick(IPO_COMPANIES)} IPO by ${dateLabel(endMs, anchorMs)}?`
          : `Will ${company} announce layoffs by ${dateLabel(endMs, anchorMs)}?`;
      return {
        title: q,
        subTags: q.includes("IPO") ? ["ipos"] : company === "Tesla" ? ["tesla", "stocks"] : ["stocks", "earnings"],
        description: yesNo("the event in the title happens before the market's end date", "official company filings and Nasdaq/NYSE data"),
      };
    },
  },
  {
    category: "business",
    kind: "multi",
    horizon: [20, 200],
    weight: 2,
    build(rng, endMs) {
      const quarter = 1 + Math.floor(new Date(endMs).getUTCMonth() / 3);
      const base = 360 + rng.int(0, 80);
      const items = [`<${base}k`];
      for (let i = 0; i < rng.int(4, 7); i++) items.push(`${base + i * 20}k-${base + (i + 1) * 20}k`);
      items.push(`>${base + (items.length - 1) * 20}k`);
      return {
        title: `Tesla deliveries in Q${quarter} ${yearOf(endMs)}?`,
        subTags: ["tesla", "earnings"],
        resolutionSource: "https://ir.tesla.com/",
        description: `This market will resolve to the range containing Tesla's reported vehicle deliveries for Q${quarter} ${yearOf(endMs)}.`,
        items,
        question: (r) => `Will Tesla deliver ${r} vehicles in Q${quarter} ${yearOf(endMs)}?`,
      };
    },
  },
  // ---------------------------------------------------------------- science
  {
    category: "science",
    kind: "binary",
    horizon: [10, 400],
    weight: 3,
    build(rng, endMs, anchorMs) {
      const q = rng.pick([
        `Will SpaceX Starship reach orbit by ${dateLabel(endMs, anchorMs)}?`,
        `Will NASA launch Artemis ${rng.int(2, 3)} by ${dateLabel(endMs, anchorMs)}?`,
        `Will a room-temperature superconductor be replicated by ${dateLabel(endMs, anchorMs)}?`,
        `Will Blue Origin land New Glenn's booster by ${dateLabel(endMs, anchorMs)}?`,
      ]);
      return {
        title: q,
        subTags: q.includes("NASA") ? ["nasa", "space"] : ["spacex", "space"],
        description: yesNo("the event in the title happens before the market's end date", "official agency and company statements"),
      };
    },
  },
  {
    category: "science",
    kind: "multi",
    horizon: [10, 90],
    weight: 2,
    endOfMonth: true,
    build(rng, endMs) {
      const base = rng.int(8, 14);
      const items = [`${base - 1} or fewer`];
      for (let i = 0; i < rng.int(4, 7); i++) items.push(`${base + i}`);
      items.push(`${base + items.length - 1} or more`);
      return {
        title: `How many SpaceX launches in ${monthOf(endMs)}?`,
        subTags: ["spacex", "space"],
        resolutionSource: "https://www.spacex.com/launches/",
        description: `This market will resolve to the number of successful SpaceX orbital launches in ${monthOf(endMs)} ${yearOf(endMs)}.`,
        items,
        question: (n) => `Will SpaceX have ${n} launches in ${monthOf(endMs)}?`,
      };
    },
  },
];
