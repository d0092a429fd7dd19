import { canonicalBrazilianNumber } from "@atende/shared/domain/format/phone";
import { CAMPAIGN_REPLY_WINDOW_DAYS } from "@atende/shared/domain/lgpd/opt-out-rules";
import type { ErasedNumbersRepository } from "./erased-numbers.repository";
import type { NumberHasher } from "./number-hash";
import type { OptOutsRepository } from "./opt-outs.repository";

/**
 * What other features ask of LGPD, as reads built before them (docs/adr/0024: existence checks are reads, so no
 * back-edge): campaigns and the external API skip opted-out numbers; imports refuse erased people's numbers;
 * campaign dispatch notes the numbers it wrote to (the reply window of an opt-out).
 */
export type ConsentReads = {
  /** true when the number may not get campaign or API messages (on the list, or erased while on it) */
  isOptedOut(companyId: number, number: string): Promise<boolean>;
  /** the numbers among these (as given) that may not get campaign or API messages */
  optedOutAmong(companyId: number, numbers: string[]): Promise<Set<string>>;
  /** the numbers among these (as given) that belong to erased people */
  erasedAmong(companyId: number, numbers: string[]): Promise<Set<string>>;
  /** a campaign wrote to this number now: a reply within the window is a reply to that campaign */
  noteCampaignMessage(companyId: number, number: string, campaignId: number, now: Date): Promise<void>;
};

export const createConsentReads = (deps: { optOuts: OptOutsRepository; erased: ErasedNumbersRepository; hashNumber: NumberHasher }): ConsentReads => {
  const { optOuts, erased, hashNumber } = deps;
  const canonical = (n: string) => canonicalBrazilianNumber(n);
  return {
    async isOptedOut(companyId, number) {
      const n = canonical(number);
      if (!n) return false;
      if (await optOuts.find(companyId, n)) return true;
      return Boolean((await erased.find(companyId, hashNumber(n)))?.optedOut);
    },
    async optedOutAmong(companyId, numbers) {
      const byCanonical = new Map(numbers.filter(Boolean).map((n) => [canonical(n), n]));
      const listed = await optOuts.findMany(companyId, [...byCanonical.keys()]);
      const rest = [...byCanonical.keys()].filter((n) => !listed.has(n));
      const hashes = new Map(rest.map((n) => [hashNumber(n), n]));
      const gone = await erased.findMany(companyId, [...hashes.keys()]);
      const out = new Set<string>();
      for (const n of listed) out.add(byCanonical.get(n) ?? n);
      for (const [h, e] of gone) if (e.optedOut) out.add(byCanonical.get(hashes.get(h)!)!);
      return out;
    },
    async erasedAmong(companyId, numbers) {
      const byHash = new Map(numbers.filter((n) => n.replace(/\D+/g, "")).map((n) => [hashNumber(n), n]));
      const found = await erased.findMany(companyId, [...byHash.keys()]);
      return new Set([...found.keys()].map((h) => byHash.get(h)!));
    },
    async noteCampaignMessage(companyId, number, campaignId, now) {
      await optOuts.noteCampaignMessage(companyId, canonical(number), campaignId, now, CAMPAIGN_REPLY_WINDOW_DAYS);
    },
  };
};
