// The static part of the simulated Polymarket: tags, events, markets, wallets and the position book. Built once,
// deterministically from (seed, scale, anchor). Everything that moves with time (prices, trades, holders) is derived
// lazily from this structure in prices.ts and flow.ts.
import { BIOS, CATEGORIES, HANDLE_WORDS, PSEUDONYM_ADJECTIVES, PSEUDONYM_NOUNS, SUB_TAG_LABELS, WHALE_NAMES } from "./names";
import { decimalId77, gauss, hash32, hexWords, pareto, rand, randOpen, Rng, slugify } from "./random";
import {
  ancillaryOf,
  DISPUTED_QUESTIONS,
  type DisputedQuestion,
  negRiskMarketIds,
  negRiskQuestions,
  standardMarketIds,
  VOTER_WALLETS,
} from "./disputed";
import { monthEnd, TEMPLATES, type EventDraft, type Template } from "./templates";

export type Scale = "small" | "demo" | "bench" | "real";

export interface WorldOptions {
  seed: number;
  scale: Scale;
  /** Start of the world's "today" (ms). Dates of events depend on it; prices and trades do not. */
  anchorMs: number;
}

export interface SimTag {
  index: number;
  id: string;
  label: string;
  slug: string;
  isCategory: boolean;
  json: Record<string, unknown>;
}

export interface SimEvent {
  index: number;
  id: string;
  slug: string;
  title: string;
  description: string;
  resolutionSource: string;
  category: string;
  tagIndexes: number[];
  createdMs: number;
  startMs: number;
  endMs: number;
  closed: boolean;
  archived: boolean;
  /** When trading stopped (closed events), else Infinity. */
  closedMs: number;
  negRisk: boolean;
  negRiskMarketID: string | null;
  markets: number[];
  image: string;
  featured: boolean;
  commentCount: number;
  /** Total trades per minute over the event's markets (retail flow). */
  tradeRate: number;
  extra: Record<string, unknown>;
  microsSalt: number;
}

export interface SimMarket {
  index: number;
  eventIndex: number;
  /** Position inside the event's markets (negRisk softmax slot). */
  slot: number;
  id: string;
  question: string;
  slug: string;
  conditionId: string;
  questionID: string;
  negRiskRequestID: string;
  tokenIds: [string, string];
  /** Protocol V2 markets (reality.ts): `positionIds` are `tokenIds`; legacy CTF ids some of them still carry. */
  version?: "v2";
  legacyTokenIds?: [string, string] | null;
  /** Gamma sends this V2 market's condition id padded to 64 hex. */
  paddedCondition?: boolean;
  outcomes: [string, string];
  groupItemTitle: string | null;
  createdMs: number;
  startMs: number;
  startSec: number;
  endMs: number;
  closed: boolean;
  closedMs: number;
  closedSec: number;
  /** Winning outcome index for closed markets. */
  winner: number | null;
  /** Base logit of the Yes price. */
  mu: number;
  noiseScale: number;
  regimeChance: number;
  jumpScale: number;
  /** Retail trades per minute (before the time-of-day factor). */
  tradeRate: number;
  liquidityBase: number;
  spreadTicks: number;
  icon: string;
  feeType: string | null;
  rewardsMinSize: number;
  rewardsMaxSpread: number;
}

export interface WalletProfile {
  index: number;
  address: string;
  name: string;
  pseudonym: string;
  bio: string;
  profileImage: string;
  displayUsernamePublic: boolean;
  verified: boolean;
  whale: boolean;
}

const SCALES = {
  // For tests whose property does not depend on the world's size (every market sampled, nothing stored twice...):
  // still more than one page of open events, multi-market events and whales, at a third of the demo's cost per pass.
  small: { openEvents: 130, closedEvents: 18, archivedEvents: 8, minMarkets: 550, wallets: 2000, whales: 15 },
  demo: { openEvents: 380, closedEvents: 18, archivedEvents: 8, minMarkets: 1600, wallets: 6000, whales: 30 },
  bench: { openEvents: 2600, closedEvents: 80, archivedEvents: 30, minMarkets: 10_500, wallets: 30_000, whales: 80 },
  // Polymarket's own size: about 23,000 open markets listed by Gamma (SOURCES.md, "Scale of the real world").
  real: { openEvents: 6200, closedEvents: 80, archivedEvents: 30, minMarkets: 25_500, wallets: 60_000, whales: 120 },
} as const;

const DAY_MS = 86_400_000;

// Salts keep the independent random streams apart.
export const SALT = {
  token: 11,
  cond: 12,
  question: 13,
  negRisk: 14,
  request: 15,
  wallet: 16,
  walletProfile: 17,
  posWallet: 20,
  posOutcome: 21,
  posShares: 22,
  posOpened: 23,
  whaleCount: 24,
  whaleMarket: 25,
  whaleUsd: 26,
  whaleRate: 27,
  icon: 28,
  micros: 29,
} as const;

export class World {
  readonly seed: number;
  readonly scale: Scale;
  readonly anchorMs: number;
  readonly tags: SimTag[] = [];
  readonly events: SimEvent[] = [];
  readonly markets: SimMarket[] = [];
  readonly walletCount: number;
  private readonly generatedWallets: number;
  readonly whaleCount: number;

  readonly eventBySlug = new Map<string, SimEvent>();
  readonly eventById = new Map<string, SimEvent>();
  readonly marketById = new Map<string, SimMarket>();
  readonly marketBySlug = new Map<string, SimMarket>();
  readonly marketByCondition = new Map<string, SimMarket>();
  /** token id → market index * 2 + outcome index */
  readonly tokenLookup = new Map<string, number>();
  readonly walletByAddress = new Map<string, number>();
  readonly tagBySlug = new Map<string, SimTag>();

  // Position book (struct of arrays). Whale positions carry a USD stake; their shares follow from the entry price.
  posWallet!: Int32Array;
  posMarket!: Int32Array;
  posOutcome!: Uint8Array;
  posShares!: Float64Array;
  posWhaleUsd!: Float64Array;
  posOpenedSec!: Float64Array;
  /** Whale trades per hour (0 for retail positions). */
  posWhaleRate!: Float64Array;
  posCount = 0;
  /** CSR: positions of market m are marketPositions[marketPosStart[m] .. marketPosStart[m+1]). */
  marketPosStart!: Int32Array;
  marketPositions!: Int32Array;
  walletPosStart!: Int32Array;
  walletPositions!: Int32Array;
  /** Whale positions per market (small lists). */
  readonly marketWhalePositions = new Map<number, number[]>();
  readonly whalePositionIndexes: number[] = [];

  private readonly walletProfiles = new Map<number, WalletProfile>();
  private readonly walletAddresses: string[] = [];

  constructor(options: WorldOptions) {
    this.seed = options.seed >>> 0;
    this.scale = options.scale;
    this.anchorMs = options.anchorMs;
    const size = SCALES[options.scale];
    // The generated wallets, then the UMA voters' Polymarket wallets (./disputed.ts), which hold the disputed markets.
    this.walletCount = size.wallets + VOTER_WALLETS.length;
    this.generatedWallets = size.wallets;
    this.whaleCount = size.whales;
    this.buildTags();
    this.buildEvents(size);
    for (const question of DISPUTED_QUESTIONS) this.addDisputedEvent(question);
    this.buildWallets();
    this.buildPositions();
  }

  // ------------------------------------------------------------------------------------------------ tags
  private buildTags(): void {
    const rng = new Rng(this.seed, 1);
    const add = (id: string, label: string, slug: string, isCategory: boolean) => {
      const createdMs = Date.UTC(2023, 9, 25) + Math.floor(rng.next() * 800) * DAY_MS + Math.floor(rng.next() * DAY_MS);
      const json: Record<string, unknown> = { id, label, slug };
      if (isCategory || rng.chance(0.6)) json.forceShow = isCategory ? false : rng.chance(0.3);
      if (isCategory || rng.chance(0.5)) json.publishedAt = new Date(createdMs - 7000).toISOString().replace("T", " ").replace("Z", "+00");
      if (rng.chance(0.3)) json.createdBy = 15;
      if (isCategory || rng.chance(0.4)) json.updatedBy = rng.pick([13, 15]);
      json.createdAt = new Date(createdMs).toISOString();
      json.updatedAt = isoMicros(this.anchorMs - 3 * DAY_MS + Math.floor(rng.next() * DAY_MS), rng.int(0, 999));
      if (isCategory && rng.chance(0.3)) json.forceHide = true;
      if (rng.chance(0.3)) json.isCarousel = false;
      json.requiresTranslation = false;
      const tag: SimTag = { index: this.tags.length, id, label, slug, isCategory, json };
      this.tags.push(tag);
      this.tagBySlug.set(slug, tag);
    };
    for (const category of CATEGORIES) add(category.id, category.label, category.slug, true);
    for (const [slug, [id, label]] of Object.entries(SUB_TAG_LABELS)) add(id, label, slug, false);
    for (const [id, label, slug] of [
      ["102169", "Hide From New", "hide-from-new"],
      ["102458", "Earn 4%", "earn-4"],
      ["102264", "Weekly", "weekly"],
    ]) {
      add(id, label, slug, false);
    }
  }

  // ------------------------------------------------------------------------------------------------ events
  private buildEvents(size: (typeof SCALES)[Scale]): void {
    const rng = new Rng(this.seed, 2);
    const categoryWeights = CATEGORIES.map((c) => c.weight);
    const byCategory = new Map<string, Template[]>();
    for (const t of TEMPLATES) byCategory.set(t.category, [...(byCategory.get(t.category) ?? []), t]);

    interface Pending {
      draft: EventDraft;
      endMs: number;
      createdMs: number;
      closed: boolean;
      archived: boolean;
      closedMs: number;
    }
    const pending: Pending[] = [];
    let marketTotal = 0;
    const draftOne = (status: "open" | "closed" | "archived") => {
      const category = CATEGORIES[weightedIndex(categoryWeights, rng.next())];
      const templates = byCategory.get(category.slug)!;
      const template =
        templates[
          weightedIndex(
            templates.map((t) => t.weight),
            rng.next(),
          )
        ];
      let endMs: number;
      if (status === "open") {
        const days = template.horizon[0] + rng.next() * (template.horizon[1] - template.horizon[0]);
        endMs =
          this.anchorMs +
          Math.round(days) * DAY_MS +
          (template.horizon[1] <= 2 ? rng.int(1, 23) * 3_600_000 : rng.chance(0.5) ? 0 : 12 * 3_600_000);
      } else if (status === "closed") {
        endMs = this.anchorMs - rng.int(1, 25) * DAY_MS + rng.int(0, 12) * 3_600_000;
      } else {
        endMs = this.anchorMs - rng.int(40, 220) * DAY_MS;
      }
      const draft: EventDraft = {
        category: template.category,
        kind: template.kind,
        resolutionSource: "",
        ...template.build(rng, endMs, this.anchorMs),
      };
      if (template.endOfMonth && status === "open") endMs = monthEnd(endMs);
      const shortLived = template.horizon[1] <= 31;
      const lifespanDays = shortLived ? 1 + rng.next() * 12 : 15 + rng.next() * 320;
      const createdMs =
        Math.min(endMs - 3_600_000, this.anchorMs - 3_600_000) -
        Math.floor(lifespanDays * DAY_MS * (status === "open" ? rng.next() * 0.9 + 0.1 : 1));
      // A closed event stopped trading before the world's anchor (Gamma lists it as closed, with its outcome prices
      // settled at 0/1). Without the clamp, an event ending a day before the anchor could close up to 8 h after it,
      // so between 00:00 and 08:00 UTC the simulator served "closed" markets that had not resolved yet.
      const closedMs = status === "open" ? Infinity : Math.min(endMs + rng.int(1, 20) * 3_600_000, this.anchorMs - 60_000);
      pending.push({ draft, endMs, createdMs, closed: status !== "open", archived: status === "archived", closedMs });
      marketTotal += draft.kind === "multi" ? draft.items!.length : 1;
    };
    let open = 0;
    while (open < size.openEvents || marketTotal < size.minMarkets) {
      draftOne("open");
      open++;
    }
    for (let i = 0; i < size.closedEvents; i++) draftOne("closed");
    for (let i = 0; i < size.archivedEvents; i++) draftOne("archived");

    // Ids follow creation order, as Gamma's auto-increment ids do.
    pending.sort((a, b) => a.createdMs - b.createdMs);
    let eventId = 16_000 + (hash32(this.seed, 3) % 4000);
    let marketId = 500_000 + (hash32(this.seed, 4) % 50_000);
    const usedSlugs = new Set<string>();
    const usedMarketSlugs = new Set<string>();
    const uniqueSlug = (base: string, used: Set<string>) => {
      let slug = base || "event";
      while (used.has(slug)) slug = `${base}-${rng.int(100, 999)}`;
      used.add(slug);
      return slug;
    };

    for (const p of pending) {
      const { draft } = p;
      eventId += rng.int(1, 40);
      const category = CATEGORIES.find((c) => c.slug === draft.category)!;
      const eventIndex = this.events.length;
      const slug = uniqueSlug(slugify(draft.title), usedSlugs);
      const multi = draft.kind === "multi";
      const subTags = rng.sample(
        draft.subTags.filter((s) => this.tagBySlug.has(s)),
        rng.int(1, Math.min(3, draft.subTags.length)),
      );
      const tagIndexes = [...subTags.slice(0, 1), category.slug, ...subTags.slice(1)].map((s) => this.tagBySlug.get(s)!.index);
      const categoryBoost: Record<string, number> = {
        politics: 1.6,
        crypto: 1.4,
        sports: 1.3,
        geopolitics: 1.1,
        weather: 0.5,
        science: 0.5,
      };
      // Heavy-tailed popularity: most events see a trade every few hours, a few see several per second.
      const tradeRate = Math.min(
        14,
        0.012 * Math.pow(randOpen(this.seed, 5, eventIndex), -1 / 0.85) * (categoryBoost[draft.category] ?? 1),
      );
      const negRiskMarketID = multi ? `0x${hexWords(8, this.seed, SALT.negRisk, eventIndex).slice(0, 62)}00` : null;
      const event: SimEvent = {
        index: eventIndex,
        id: String(eventId),
        slug,
        title: draft.title,
        description: draft.description,
        resolutionSource: draft.resolutionSource,
        category: draft.category,
        tagIndexes,
        createdMs: p.createdMs,
        startMs: p.createdMs + rng.int(60, 3600) * 1000,
        endMs: p.endMs,
        closed: p.closed,
        archived: p.archived,
        closedMs: p.closedMs,
        negRisk: multi,
        negRiskMarketID,
        markets: [],
        image: `https://polymarket-upload.s3.us-east-2.amazonaws.com/${slug.slice(0, 40)}-${hexWords(1, this.seed, SALT.icon, eventIndex).slice(0, 6)}.png`,
        featured: rng.chance(0.03),
        commentCount: Math.floor(Math.pow(rng.next(), 3) * 3000),
        tradeRate,
        extra: draft.extra ?? {},
        microsSalt: rng.int(0, 999),
      };
      this.events.push(event);
      this.eventBySlug.set(slug, event);
      this.eventById.set(event.id, event);

      const items = multi ? draft.items! : [null];
      // negRisk weights: a favourite or two and a long tail of longshots.
      const weights = items.map(() => Math.pow(randOpen(this.seed, 6, eventIndex, rng.int(0, 1 << 30)), -1.3));
      const weightSum = weights.reduce((a, b) => a + b, 0);
      items.forEach((item, slot) => {
        marketId += rng.int(1, 9);
        const index = this.markets.length;
        const question = multi ? draft.question!(item!) : draft.title;
        const marketSlug = uniqueSlug(multi ? slugify(question) : slug, usedMarketSlugs);
        const share = weights[slot] / weightSum;
        const rate = multi ? tradeRate * (0.25 / items.length + 0.75 * share) : tradeRate;
        const liquidityBase = 400 * Math.pow(rate / 0.012, 0.75) * Math.exp(0.6 * rng.gauss()) + rng.next() * 300;
        let winner: number | null = null;
        if (p.closed) {
          if (multi)
            winner = null; // decided below once all slots exist
          else winner = rng.chance(0.5) ? 0 : 1;
        }
        const market: SimMarket = {
          index,
          eventIndex,
          slot,
          id: String(marketId),
          question,
          slug: marketSlug,
          conditionId: `0x${hexWords(8, this.seed, SALT.cond, index)}`,
          questionID: multi
            ? `${negRiskMarketID!.slice(0, 64)}${slot.toString(16).padStart(2, "0")}`
            : `0x${hexWords(8, this.seed, SALT.question, index)}`,
          negRiskRequestID: multi ? `0x${hexWords(8, this.seed, SALT.request, index)}` : "",
          tokenIds: [decimalId77(this.seed, SALT.token, index, 0), decimalId77(this.seed, SALT.token, index, 1)],
          outcomes: draft.outcomes ?? ["Yes", "No"],
          groupItemTitle: multi ? item : null,
          createdMs: event.createdMs + rng.int(1, 30) * 1000,
          startMs: event.startMs - rng.int(1, 300) * 1000,
          startSec: 0,
          endMs: event.endMs,
          closed: p.closed,
          closedMs: p.closedMs,
          closedSec: p.closed ? Math.floor(p.closedMs / 1000) : Infinity,
          winner,
          mu: multi ? Math.log(weights[slot]) : draft.outcomes && draft.outcomes[0] === "Up" ? 0.1 * rng.gauss() : 1.7 * rng.gauss(),
          noiseScale: 0.6 + rng.next() * 0.8,
          regimeChance: 0.04 + rng.next() * 0.1,
          jumpScale: 0.35 + rng.next() * 0.6,
          tradeRate: rate,
          liquidityBase,
          spreadTicks: rate > 1 ? 1 : rate > 0.05 ? rng.int(1, 2) : rng.int(2, 5),
          icon: event.image,
          feeType: draft.feeType ?? null,
          rewardsMinSize: rng.pick([20, 50, 100]),
          rewardsMaxSpread: rng.pick([3.5, 4.5, 5.5]),
        };
        market.startSec = Math.floor(market.startMs / 1000);
        this.addMarket(event, market);
      });
      if (p.closed && multi) {
        const winnerSlot = weightedIndex(weights, rng.next());
        for (const m of event.markets) this.markets[m].winner = this.markets[m].slot === winnerSlot ? 0 : 1;
      }
    }
  }

  // ------------------------------------------------------------------------------------------------ disputed markets
  /**
   * The markets the local chains dispute (./disputed.ts), appended after the generated events with their own random
   * streams, so the generated world stays what it was. Ids are derived from the question's bytes as the contracts do.
   */
  /** Registers a new market under its event and in every lookup (its two outcome tokens are slots 2i and 2i+1). */
  private addMarket(event: SimEvent, market: SimMarket): void {
    const index = this.markets.length;
    this.markets.push(market);
    event.markets.push(index);
    this.marketById.set(market.id, market);
    this.marketBySlug.set(market.slug, market);
    this.marketByCondition.set(market.conditionId, market);
    this.tokenLookup.set(market.tokenIds[0], index * 2);
    this.tokenLookup.set(market.tokenIds[1], index * 2 + 1);
  }

  private addDisputedEvent(question: DisputedQuestion): void {
    const eventIndex = this.events.length;
    const last = this.events[eventIndex - 1];
    const lastMarket = this.markets[this.markets.length - 1];
    const rng = new Rng(this.seed, 40 + eventIndex);
    const createdMs = Math.min(Date.UTC(2026, 2, 2), this.anchorMs - 60 * DAY_MS);
    const title = question.negRisk?.eventTitle ?? question.title;
    let slug = slugify(title);
    while (this.eventBySlug.has(slug)) slug = `${slug}-${rng.int(100, 999)}`;
    const category = CATEGORIES.find((c) => c.slug === question.category)!;
    const closedMs = question.closed ? Math.min(question.endMs + 12 * 3_600_000, this.anchorMs - 60_000) : Infinity;
    const titles = negRiskQuestions(question);
    const ids = titles.map((t, slot) => {
      const ancillary = ancillaryOf({ ...question, title: t, titleBytes: t === question.title ? question.titleBytes : undefined });
      return question.negRisk
        ? negRiskMarketIds(question.negRisk.eventTitle, slot, ancillary)
        : standardMarketIds(question.adapter, ancillary);
    });
    const negRiskMarketID = question.negRisk ? (ids[0] as ReturnType<typeof negRiskMarketIds>).negRiskMarketID : null;
    const event: SimEvent = {
      index: eventIndex,
      id: String(Number(last.id) + 1 + rng.int(1, 40)),
      slug,
      title,
      description: question.description ?? title,
      resolutionSource: "",
      category: category.slug,
      tagIndexes: [this.tagBySlug.get(category.slug)!.index],
      createdMs,
      startMs: createdMs + 600_000,
      endMs: question.endMs,
      closed: question.closed !== null,
      archived: false,
      closedMs,
      negRisk: question.negRisk !== null,
      negRiskMarketID,
      markets: [],
      image: `https://polymarket-upload.s3.us-east-2.amazonaws.com/${slug.slice(0, 40)}.png`,
      featured: false,
      commentCount: rng.int(5, 400),
      tradeRate: 0.6,
      extra: {},
      microsSalt: rng.int(0, 999),
    };
    this.events.push(event);
    this.eventBySlug.set(slug, event);
    this.eventById.set(event.id, event);
    let marketId = Number(lastMarket.id);
    titles.forEach((t, slot) => {
      const index = this.markets.length;
      marketId += rng.int(1, 9);
      const market: SimMarket = {
        index,
        eventIndex,
        slot,
        id: String(marketId),
        question: t,
        slug: question.negRisk && !this.marketBySlug.has(slugify(t)) ? slugify(t) : `${slug}${question.negRisk ? `-${slot}` : ""}`,
        conditionId: ids[slot].conditionId,
        questionID: ids[slot].questionID,
        negRiskRequestID: ids[slot].negRiskRequestID,
        tokenIds: [decimalId77(this.seed, SALT.token, index, 0), decimalId77(this.seed, SALT.token, index, 1)],
        outcomes: ["Yes", "No"],
        groupItemTitle: question.negRisk ? t : null,
        createdMs: createdMs + 1000,
        startMs: createdMs + 600_000,
        startSec: Math.floor((createdMs + 600_000) / 1000),
        endMs: question.endMs,
        closed: question.closed !== null,
        closedMs,
        closedSec: question.closed ? Math.floor(closedMs / 1000) : Infinity,
        winner: question.closed ? (t === question.title ? question.closed.winner : 1) : null,
        mu: question.negRisk ? (t === question.title ? 0.4 : 0) : 0.3 * rng.gauss(),
        noiseScale: 0.6 + rng.next() * 0.4,
        regimeChance: 0.05,
        jumpScale: 0.4,
        tradeRate: 0.6 / titles.length,
        liquidityBase: 4000 + rng.next() * 2000,
        spreadTicks: 1,
        icon: event.image,
        feeType: null,
        rewardsMinSize: 50,
        rewardsMaxSpread: 4.5,
      };
      this.addMarket(event, market);
    });
  }

  // ------------------------------------------------------------------------------------------------ wallets
  private buildWallets(): void {
    for (let i = 0; i < this.walletCount; i++) {
      const voter = VOTER_WALLETS[i - this.generatedWallets];
      const address = voter ? voter.wallet.toLowerCase() : `0x${hexWords(5, this.seed, SALT.wallet, i)}`;
      this.walletAddresses.push(address);
      this.walletByAddress.set(address, i);
    }
  }

  walletAddress(index: number): string {
    return this.walletAddresses[index];
  }

  isWhale(walletIndex: number): boolean {
    return walletIndex < this.whaleCount;
  }

  wallet(index: number): WalletProfile {
    let profile = this.walletProfiles.get(index);
    if (profile) return profile;
    const r = (k: number) => rand(this.seed, SALT.walletProfile, index, k);
    const address = this.walletAddresses[index];
    const whale = this.isWhale(index);
    const pseudonym = `${PSEUDONYM_ADJECTIVES[Math.floor(r(1) * PSEUDONYM_ADJECTIVES.length)]}-${PSEUDONYM_NOUNS[Math.floor(r(2) * PSEUDONYM_NOUNS.length)]}`;
    const style = r(3);
    // Anonymous profiles (displayUsernamePublic false) come back with empty name and pseudonym, as upstream does.
    const isPublic = whale || style >= 0.08;
    let name: string;
    if (!isPublic) name = "";
    else if (whale) name = WHALE_NAMES[index % WHALE_NAMES.length] + (index >= WHALE_NAMES.length ? String(index) : "");
    else if (style < 0.55) name = `${HANDLE_WORDS[Math.floor(r(4) * HANDLE_WORDS.length)]}${Math.floor(r(5) * 9999)}`;
    else if (style < 0.75) name = `${checksumLike(address, r(6))}-${1_700_000_000_000 + Math.floor(r(7) * 70_000_000_000)}`;
    else if (style < 0.88) name = address.slice(0, 8 + Math.floor(r(8) * 14));
    else name = "";
    profile = {
      index,
      address,
      name,
      pseudonym: isPublic ? pseudonym : "",
      bio: r(9) < 0.08 ? BIOS[Math.floor(r(10) * BIOS.length)] : "",
      profileImage:
        r(11) < (whale ? 0.6 : 0.15)
          ? `https://polymarket-upload.s3.us-east-2.amazonaws.com/profile-image-${1_000_000 + Math.floor(r(12) * 4_000_000)}-${hexWords(4, this.seed, SALT.walletProfile + 1, index).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*/, "$1-$2-$3-$4-$5")}.jpg`
          : "",
      displayUsernamePublic: isPublic,
      verified: whale && r(13) < 0.2,
      whale,
    };
    this.walletProfiles.set(index, profile);
    return profile;
  }

  // ------------------------------------------------------------------------------------------------ positions
  private buildPositions(): void {
    const wallets: number[] = [];
    const markets: number[] = [];
    const outcomes: number[] = [];
    const shares: number[] = [];
    const whaleUsd: number[] = [];
    const opened: number[] = [];
    const whaleRate: number[] = [];
    const anchorSec = Math.floor(this.anchorMs / 1000);
    const retailWallets = this.generatedWallets - this.whaleCount;
    const openedAt = (m: SimMarket, u: number) => {
      const from = m.startSec;
      const to = Math.min(anchorSec, m.closedSec) - 60;
      return Math.floor(from + (to - from) * u);
    };

    for (const market of this.markets) {
      const count = Math.min(400, Math.round(6 + 55 * Math.sqrt(market.tradeRate / 0.15)));
      const seen = new Set<number>();
      for (let j = 0; j < count; j++) {
        // Zipf-ish: low wallet indexes are the platform's most active accounts.
        const wallet = this.whaleCount + Math.floor(retailWallets * Math.pow(rand(this.seed, SALT.posWallet, market.index, j), 2.2));
        if (seen.has(wallet)) continue;
        seen.add(wallet);
        wallets.push(wallet);
        markets.push(market.index);
        outcomes.push(rand(this.seed, SALT.posOutcome, market.index, j) < 0.58 ? 0 : 1);
        shares.push(
          Math.min(250_000, Math.round(Math.exp(Math.log(45) + 1.7 * gauss(this.seed, SALT.posShares, market.index, j)) * 100) / 100 + 1),
        );
        whaleUsd.push(0);
        opened.push(openedAt(market, rand(this.seed, SALT.posOpened, market.index, j)));
        whaleRate.push(0);
      }
    }

    // The UMA voters' wallets hold large positions in the markets they vote on (./disputed.ts VOTER_WALLETS).
    const disputedTitles = new Map(DISPUTED_QUESTIONS.map((q) => [q.title, q]));
    VOTER_WALLETS.forEach((voter, v) => {
      for (const market of this.markets) {
        if (!disputedTitles.has(market.question) || !voter.holds.includes(disputedTitles.get(market.question)!.key)) continue;
        wallets.push(this.generatedWallets + v);
        markets.push(market.index);
        outcomes.push(voter.outcome);
        shares.push(voter.shares);
        whaleUsd.push(0);
        opened.push(openedAt(market, 0.5));
        whaleRate.push(0);
      }
    });

    // Whales: a few dozen wallets with large stakes in the busiest markets; each stake trades on its own stream.
    const eligible = this.markets.filter((m) => !this.events[m.eventIndex].archived);
    const cumulative = new Float64Array(eligible.length);
    let total = 0;
    eligible.forEach((m, i) => {
      total += Math.sqrt(m.tradeRate);
      cumulative[i] = total;
    });
    for (let w = 0; w < this.whaleCount; w++) {
      const count = 8 + Math.floor(rand(this.seed, SALT.whaleCount, w) * 30);
      const seen = new Set<number>();
      for (let j = 0; j < count * 2 && seen.size < count; j++) {
        const at = bisect(cumulative, rand(this.seed, SALT.whaleMarket, w, j) * total);
        const market = eligible[at];
        if (seen.has(market.index)) continue;
        seen.add(market.index);
        const position = wallets.length;
        wallets.push(w);
        markets.push(market.index);
        outcomes.push(rand(this.seed, SALT.whaleMarket + 1, w, j) < 0.6 ? 0 : 1);
        shares.push(NaN);
        whaleUsd.push(Math.min(4_000_000, pareto(18_000, 1.1, randOpen(this.seed, SALT.whaleUsd, w, j))));
        opened.push(openedAt(market, rand(this.seed, SALT.posOpened + 1, w, j)));
        whaleRate.push(0.03 + 0.2 * rand(this.seed, SALT.whaleRate, w, j));
        this.whalePositionIndexes.push(position);
        const list = this.marketWhalePositions.get(market.index) ?? [];
        list.push(position);
        this.marketWhalePositions.set(market.index, list);
      }
    }

    this.posCount = wallets.length;
    this.posWallet = Int32Array.from(wallets);
    this.posMarket = Int32Array.from(markets);
    this.posOutcome = Uint8Array.from(outcomes);
    this.posShares = Float64Array.from(shares);
    this.posWhaleUsd = Float64Array.from(whaleUsd);
    this.posOpenedSec = Float64Array.from(opened);
    this.posWhaleRate = Float64Array.from(whaleRate);
    [this.marketPosStart, this.marketPositions] = csr(this.posMarket, this.markets.length);
    [this.walletPosStart, this.walletPositions] = csr(this.posWallet, this.walletCount);
  }

  positionsOfMarket(market: number): Int32Array {
    return this.marketPositions.subarray(this.marketPosStart[market], this.marketPosStart[market + 1]);
  }

  positionsOfWallet(wallet: number): Int32Array {
    return this.walletPositions.subarray(this.walletPosStart[wallet], this.walletPosStart[wallet + 1]);
  }

  isOpen(event: SimEvent): boolean {
    return !event.closed && !event.archived;
  }
}

function csr(keys: Int32Array, buckets: number): [Int32Array, Int32Array] {
  const start = new Int32Array(buckets + 1);
  for (let i = 0; i < keys.length; i++) start[keys[i] + 1]++;
  for (let b = 0; b < buckets; b++) start[b + 1] += start[b];
  const fill = start.slice(0, buckets);
  const items = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) items[fill[keys[i]]++] = i;
  return [start, items];
}

export function weightedIndex(weights: readonly number[], u: number): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = u * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i];
    if (x < 0) return i;
  }
  return weights.length - 1;
}

export function bisect(cumulative: Float64Array, x: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function checksumLike(address: string, u: number): string {
  let out = "0x";
  for (let i = 2; i < address.length; i++) {
    const c = address[i];
    out += /[a-f]/.test(c) && (i * 7 + Math.floor(u * 97)) % 3 === 0 ? c.toUpperCase() : c;
  }
  return out;
}

/** ISO 8601 with microseconds, like Gamma's timestamps ("2025-07-11T18:41:17.827458Z"). */
export function isoMicros(ms: number, micros: number): string {
  return new Date(Math.floor(ms)).toISOString().replace("Z", `${String(micros % 1000).padStart(3, "0")}Z`);
}
