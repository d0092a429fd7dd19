import { describe, expect, it } from "vitest";
import {
  CAMPAIGN_FIELDS,
  campaignProgress,
  campaignSchema,
  canEditCampaignMessages,
  fillCampaignPlaceholders,
  filledVariants,
  isCampaignEditable,
  pickCampaign,
  type Campaign,
} from "./campaign";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const inMinutes = (m: number) => new Date(NOW.getTime() + m * 60_000).toISOString();

describe("campaign rules", () => {
  it("is editable while INATIVA or PROGRAMADA more than an hour ahead; CANCELADA takes message edits only", () => {
    expect(isCampaignEditable({ status: "INATIVA", scheduledAt: null }, NOW)).toBe(true);
    expect(isCampaignEditable({ status: "PROGRAMADA", scheduledAt: inMinutes(61) }, NOW)).toBe(true);
    expect(isCampaignEditable({ status: "PROGRAMADA", scheduledAt: inMinutes(60) }, NOW)).toBe(false);
    expect(isCampaignEditable({ status: "EM_ANDAMENTO", scheduledAt: inMinutes(-1) }, NOW)).toBe(false);
    expect(isCampaignEditable({ status: "CANCELADA", scheduledAt: null }, NOW)).toBe(false);
    expect(canEditCampaignMessages({ status: "CANCELADA", scheduledAt: null }, NOW)).toBe(true);
    expect(canEditCampaignMessages({ status: "FINALIZADA", scheduledAt: null }, NOW)).toBe(false);
  });

  it("fills {nome}, {numero}, {email} and custom variables, leaving unknown ones as written", () => {
    const text = fillCampaignPlaceholders("Oi {nome} ({numero}, {email}) {cupom} {outro}", {
      name: "Ana",
      number: "5511999990000",
      email: "ana@x.com",
      variables: [{ key: "cupom", value: "BF50" }],
    });
    expect(text).toBe("Oi Ana (5511999990000, ana@x.com) BF50 {outro}");
  });

  it("draws only among filled variants and computes progress over valid recipients", () => {
    const parsed = campaignSchema.parse({ name: "Natal", message2: "Dois", message4: "  ", confirmationMessage2: "Conf" });
    expect(filledVariants(parsed).map((v) => v.n)).toEqual([2]);
    expect(campaignProgress(1, 3)).toBe(33);
    expect(campaignProgress(0, 0)).toBe(0);
  });

  it("reads the spec's 'YYYY-MM-DD HH:mm:ss' and ISO instants; empty means not scheduled", () => {
    // a wall-clock time is kept as sent: the service reads it in the company's time zone
    expect(campaignSchema.parse({ name: "Ok", scheduledAt: "2026-06-01 10:00:00" }).scheduledAt).toBe("2026-06-01 10:00:00");
    expect(campaignSchema.parse({ name: "Ok", scheduledAt: "2026-06-01T10:00:00.000-03:00" }).scheduledAt).toBe("2026-06-01T10:00:00.000-03:00");
    expect(campaignSchema.parse({ name: "Ok", scheduledAt: "" }).scheduledAt).toBeNull();
    expect(campaignSchema.safeParse({ name: "Ok", scheduledAt: "amanhã" }).success).toBe(false);
  });
});

describe("pickCampaign", () => {
  it("takes the campaign's own fields in field order and drops anything carried beside them (the dispatch state)", () => {
    const fields = {
      updatedAt: "u",
      createdAt: "c",
      mediaName: null,
      mediaPath: null,
      fileListId: null,
      tagListId: "Nenhuma" as const,
      contactListId: 4,
      whatsappId: 2,
      completedAt: null,
      scheduledAt: null,
      confirmation: false,
      status: "INATIVA" as const,
      confirmationMessage5: "",
      confirmationMessage4: "",
      confirmationMessage3: "",
      confirmationMessage2: "",
      confirmationMessage1: "",
      message5: "",
      message4: "",
      message3: "",
      message2: "",
      message1: "oi",
      name: "N",
      companyId: 1,
      id: 7,
    };
    const picked = pickCampaign({ ...fields, stepSeq: 3, cursor: "x", sentCount: 9 } as Campaign);
    expect(picked).toEqual(fields);
    expect(Object.keys(picked)).toEqual(Object.keys(CAMPAIGN_FIELDS));
  });
});
