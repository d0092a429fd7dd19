import { describe, expect, it } from "vitest";
import { readPreference } from "../../../lib/preferences";
import { SIGN_MESSAGE, isAudioKept, isSendable, matchQuickMessages, quickMessageLabel, quickMessageQuery, signedBody } from "./composer-rules";

const qm = (id: number, shortcode: string, message: string) => ({ id, shortcode, message });

describe("composer rules", () => {
  it("does not send blank text", () => {
    expect(isSendable("")).toBe(false);
    expect(isSendable("  \n\t ")).toBe(false);
    expect(isSendable(" oi ")).toBe(true);
  });

  it("suggests quick messages only after a slash and one more character", () => {
    const all = [qm(1, "bomdia", "Bom dia! Como posso ajudar?"), qm(2, "pix", "Nossa chave pix é ...")];
    expect(quickMessageQuery("/")).toBeNull();
    expect(quickMessageQuery("oi /bom")).toBeNull();
    expect(matchQuickMessages(all, "/")).toEqual([]);
    expect(matchQuickMessages(all, "/BOM").map((q) => q.id)).toEqual([1]);
  });

  it("cuts the suggestion label at 35 characters", () => {
    const label = quickMessageLabel(qm(1, "bomdia", "Bom dia! Como posso ajudar você hoje?"));
    expect(label).toBe("bomdia - Bom dia! Como posso ajudar...");
    expect(label.replace(/\.\.\.$/, "")).toHaveLength(35);
    expect(quickMessageLabel(qm(2, "pix", "curto"))).toBe("pix - curto");
  });

  it("signs by default and remembers the choice", () => {
    expect(readPreference(SIGN_MESSAGE)).toBe(true);
    localStorage.setItem("signOption", "false");
    expect(readPreference(SIGN_MESSAGE)).toBe(false);
    expect(signedBody(" oi ", "Ana", true)).toBe("*Ana:*\noi");
    expect(signedBody(" oi ", "Ana", false)).toBe("oi");
  });

  it("discards audio under 10000 bytes", () => {
    expect(isAudioKept(new Blob([new Uint8Array(9_999)]))).toBe(false);
    expect(isAudioKept(new Blob([new Uint8Array(10_000)]))).toBe(true);
  });
});
