// Polymarket identifiers, shared by the upstream clients, the API contracts and the dashboard (it sits below all
// three). Sources: docs/upstream.md ("Identifiers").
//
// A condition id is `0x` + 64 hex digits for CTF (protocol V1) markets. Protocol V2 ("PolyV2") condition ids are
// bytes31: `0x` + 62 hex digits, also written padded to bytes32 with a trailing `00` (Polymarket/ts-sdk
// packages/bindings/src/protocol/ids.ts `ProtocolConditionIdSchema`; gamma/market.test.ts uses both forms).

/** `0x` + 62 (V2, bytes31) or 64 (V1, or V2 padded) hex digits. */
export const CONDITION_ID_PATTERN = /^0x(?:[0-9a-fA-F]{62}|[0-9a-fA-F]{64})$/;

/** Human description of the accepted condition id forms (OpenAPI descriptions, 400 details). */
export const CONDITION_ID_FORMS = "0x + 64 hex (V1), or 0x + 62 hex (V2, also accepted padded to 64 with a trailing 00)";

/** A wallet's resource in this API (docs/wallets.md): every wallet shown anywhere links to it. */
export function walletUrl(address: string): string {
  return `/api/predmkt/wallets/${address.toLowerCase()}`;
}

/** Gamma market ids are decimal strings. */
export const MARKET_ID_PATTERN = /^\d{1,20}$/;

/**
 * Every spelling under which the same condition may appear upstream, lowercased: a 62-digit V2 id and its padded
 * 64-digit form name one condition. A 64-digit id ending in `00` may be either a V1 id or a padded V2 id, so both
 * spellings are tried.
 */
export function conditionIdForms(conditionId: string): string[] {
  const id = conditionId.toLowerCase();
  if (id.length === 64) return [id, `${id}00`];
  if (id.length === 66 && id.endsWith("00")) return [id, id.slice(0, 64)];
  return [id];
}

/** True when two condition ids name the same condition (case and V2 padding ignored). */
export function sameCondition(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  return conditionIdForms(a).includes(b.toLowerCase());
}

/**
 * The one form a condition id is stored, joined and compared in: lower case, and a 62-digit V2 id padded to its
 * 64-digit bytes32 spelling (the trailing `00`), so a trade that names a market one way joins the market stored the
 * other way (docs/upstream-live.md, "Condition ids"). A V1 id is already 64 digits and stays as it is; anything else
 * (not a condition id) is only lower-cased.
 */
export function canonicalConditionId(conditionId: string): string {
  const id = conditionId.toLowerCase();
  return /^0x[0-9a-f]{62}$/.test(id) ? `${id}00` : id;
}
