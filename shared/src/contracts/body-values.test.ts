import { describe, expect, it } from "vitest";
import * as z from "zod";
import { flag, idList, num, optionalId, optionalNum, optionalText, orNone, requiredId } from "./body-values";
import { sendMessageSchema } from "../domain/messages/message";
import { ticketUpdateSchema } from "../domain/tickets/ticket";
import { userCreateSchema } from "../domain/users/users";
import { queueSchema } from "../domain/queues/queues";
import { campaignSchema, NO_TAG_LIST } from "../domain/campaigns/campaign";
import { whatsappFormSchema } from "../domain/whatsapps/whatsapp-form";
import { tagCreateSchema } from "../domain/tags/tag";
import { promptSchema } from "../domain/prompts/prompt";
import { companySchema } from "../domain/companies/companies";
import { scheduleSchema } from "../domain/schedules/schedule";

const ok = (s: z.ZodType, v: unknown) => s.parse(v);
const bad = (s: z.ZodType, v: unknown) => expect(s.safeParse(v).success, `accepted ${JSON.stringify(v)}`).toBe(false);

describe("the empty-value rule", () => {
  it("flag: booleans, 1/0 and their text; nothing else", () => {
    for (const v of [true, 1, "1", "true"]) expect(ok(flag(), v)).toBe(true);
    for (const v of [false, 0, "0", "false"]) expect(ok(flag(), v)).toBe(false);
    for (const v of [2, -1, "yes", "", null, undefined, "TRUE", {}]) bad(flag(), v);
    expect(ok(z.object({ f: flag().optional() }), {})).toEqual({});
  });

  it("optionalId: positive ids (or digits); null/false/\"\"/0/\"0\" are none; absent stays absent", () => {
    const s = z.object({ id: optionalId() });
    expect(ok(s, { id: 7 })).toEqual({ id: 7 });
    expect(ok(s, { id: "7" })).toEqual({ id: 7 });
    for (const v of [null, false, "", 0, "0"]) expect(ok(s, { id: v })).toEqual({ id: null });
    expect(ok(s, {})).toEqual({});
    for (const v of [-1, 1.5, "abc", "1a", true, [], {}, "-2"]) bad(s, { id: v });
  });

  it("requiredId refuses every none value", () => {
    expect(ok(requiredId(), "12")).toBe(12);
    for (const v of [null, false, "", 0, "0", undefined, "x"]) bad(requiredId(), v);
    expect(requiredId("Informe o setor").safeParse("").error?.issues[0]?.message).toBe("Informe o setor");
  });

  it("optionalText: null is empty; the string's own limits and messages stay", () => {
    const s = optionalText(z.string().max(3, "Too Long!"));
    expect(ok(s, null)).toBe("");
    expect(ok(s, "abc")).toBe("abc");
    expect(s.safeParse("abcd").error?.issues[0]?.message).toBe("Too Long!");
    bad(s, 5);
  });

  it("num and optionalNum: numeric text; empty is refused when required and 'not given' when optional", () => {
    expect(ok(num(z.number().int()), "42")).toBe(42);
    for (const v of ["", null, "4x", true]) bad(num(z.number().int()), v);
    const o = optionalNum(z.number().int().default(9));
    expect(ok(o, "")).toBe(9);
    expect(ok(o, null)).toBe(9);
    expect(ok(o, undefined)).toBe(9);
    expect(ok(o, " 3 ")).toBe(3);
    bad(o, "three");
  });

  it("idList: arrays, JSON-array strings and comma text, with digits", () => {
    expect(ok(idList(5), [1, "2"])).toEqual([1, 2]);
    expect(ok(idList(5), "[1,2]")).toEqual([1, 2]);
    expect(ok(idList(5), "3, 4")).toEqual([3, 4]);
    expect(ok(idList(5), "")).toEqual([]);
    for (const v of ["[1,", "[0]", "[-1]", [1, 2, 3, 4, 5, 6], "a,b", [null]]) bad(idList(5), v);
  });

  it("orNone: the value, or null for null/false/\"\"; anything else is the schema's to refuse", () => {
    const minutes = orNone(num(z.number().int().min(1)));
    expect(ok(minutes, "15")).toBe(15);
    for (const v of [null, false, ""]) expect(ok(minutes, v)).toBeNull();
    for (const v of [0, "abc", true]) bad(minutes, v);
    const template = orNone(z.object({ name: z.string() }));
    expect(ok(template, { name: "x" })).toEqual({ name: "x" });
    expect(ok(template, false)).toBeNull();
    bad(template, {});
  });
});

describe("what the spec's clients really sent", () => {
  it("POST /messages/{ticketId} with read: 1, fromMe: 0", () => {
    expect(sendMessageSchema.parse({ read: 1, fromMe: 0, body: "oi", mediaUrl: "", quotedMsg: null })).toMatchObject({ read: true, fromMe: false, body: "oi" });
    bad(sendMessageSchema, { read: 2, body: "oi" });
  });

  it("POST /schedules with template false or \"\" (no template: the text is sent)", () => {
    for (const none of [false, "", null]) expect(ok(scheduleSchema, { body: "Oi", sendAt: "2026-12-01 10:00:00", contactId: "3", template: none })).toMatchObject({ body: "Oi", template: null });
    bad(scheduleSchema, { sendAt: "2026-12-01 10:00:00", contactId: 3, template: false });
  });

  it("PUT /tickets/{id} with promptId/integrationId false", () => {
    expect(ticketUpdateSchema.parse({ status: "closed", userId: 1, useIntegration: false, promptId: false, integrationId: false })).toEqual({
      status: "closed",
      userId: 1,
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });
    bad(ticketUpdateSchema, { status: "finished" });
    bad(ticketUpdateSchema, {});
  });

  it("POST /users with whatsappId false, queueIds as text", () => {
    const u = userCreateSchema.parse({ name: "Ana Lima", email: "ana@x.com", password: "secret1", whatsappId: false, queueIds: ["1", 2], profile: "user" });
    expect(u).toMatchObject({ whatsappId: null, queueIds: [1, 2] });
  });

  it("POST /queue with integrationId \"\" and promptId null", () => {
    expect(queueSchema.parse({ name: "Vendas", color: "#B80000", greetingMessage: null, integrationId: "", promptId: null })).toMatchObject({
      integrationId: null,
      promptId: null,
      greetingMessage: "",
    });
  });

  it("POST /campaigns with null message variants and none ids", () => {
    const c = campaignSchema.parse({
      name: "Black Friday",
      message1: "Olá {nome}",
      message2: null,
      message3: null,
      message4: null,
      message5: null,
      confirmationMessage1: null,
      confirmationMessage2: null,
      confirmationMessage3: null,
      confirmationMessage4: null,
      confirmationMessage5: null,
      confirmation: 0,
      scheduledAt: null,
      whatsappId: 3,
      contactListId: "4",
      tagListId: "",
      fileListId: false,
    });
    expect(c).toMatchObject({ message2: "", confirmationMessage5: "", confirmation: false, contactListId: 4, tagListId: NO_TAG_LIST, fileListId: null });
  });

  it("other forms: connection, tag, prompt, company", () => {
    expect(whatsappFormSchema.parse({ name: "Principal", isDefault: 1, queueIds: "[1,2]", promptId: false, greetingMessage: null })).toMatchObject({
      isDefault: true,
      queueIds: [1, 2],
      promptId: null,
      greetingMessage: "",
    });
    expect(tagCreateSchema.parse({ name: "Urgente", kanban: true })).toMatchObject({ kanban: 1 });
    expect(tagCreateSchema.parse({ name: "Urgente", kanban: "0" })).toMatchObject({ kanban: 0 });
    expect(promptSchema.parse({ name: "IA", prompt: "Seja gentil", apiKey: "sk", queueId: "2", maxTokens: "", temperature: "0.5" })).toMatchObject({
      queueId: 2,
      maxTokens: 100,
      temperature: 0.5,
    });
    expect(companySchema.parse({ name: "Empresa", email: "a@b.com", planId: "1", status: "t", campaignsEnabled: "false", phone: null })).toMatchObject({
      planId: 1,
      status: true,
      campaignsEnabled: false,
      phone: "",
    });
  });
});
