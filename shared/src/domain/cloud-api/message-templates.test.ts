import { describe, expect, it } from "vitest";
import { externalTemplateSchema, fromGraphTemplate, isSendable, missingValues, renderTemplate, templateComponents, templateVariables, valuesFromComponents, variablesOf } from "./message-templates";

/** Shaped like an entry of Meta's documented `GET /<WABA_ID>/message_templates` answer. */
const seasonal = fromGraphTemplate({
  name: "seasonal_promotion",
  language: "en_US",
  status: "APPROVED",
  category: "MARKETING",
  id: "546151681022936",
  components: [
    { type: "HEADER", format: "TEXT", text: "Our {{1}} is on!" },
    { type: "BODY", text: "Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise." },
    { type: "FOOTER", text: "Use the buttons below to manage your marketing subscriptions" },
    { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Unsubscribe from Promos" }, { type: "URL", text: "Shop", url: "https://example.com/shop" }] },
  ],
});

describe("message templates", () => {
  it("are kept with name, language, category, status, header, body and buttons", () => {
    expect(seasonal).toEqual({
      id: "546151681022936",
      name: "seasonal_promotion",
      language: "en_US",
      category: "MARKETING",
      status: "APPROVED",
      header: { format: "TEXT", text: "Our {{1}} is on!" },
      body: "Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise.",
      footer: "Use the buttons below to manage your marketing subscriptions",
      buttons: [{ type: "QUICK_REPLY", text: "Unsubscribe from Promos" }, { type: "URL", text: "Shop", url: "https://example.com/shop" }],
    });
    expect(isSendable(seasonal)).toBe(true);
    expect(isSendable({ status: "PENDING" })).toBe(false);
  });

  it("lists variables once, in order, positional or named", () => {
    expect(templateVariables("Hi {{1}}, {{2}} and {{ 1 }}")).toEqual(["1", "2"]);
    expect(templateVariables("Order {{order_id}} ships {{date}}")).toEqual(["order_id", "date"]);
    expect(variablesOf(seasonal)).toEqual({ header: ["1"], body: ["1", "2", "3"] });
  });

  it("previews with the values filled in and reports the missing ones", () => {
    const values = { header: { "1": "Summer Sale" }, body: { "1": "the end of August", "2": "25OFF", "3": "" } };
    expect(missingValues(seasonal, values)).toEqual(["body.3"]);
    expect(renderTemplate(seasonal, { ...values, body: { ...values.body, "3": "25%" } })).toBe(
      "*Our Summer Sale is on!*\nShop now through the end of August and use code 25OFF to get 25% off of all merchandise.\n_Use the buttons below to manage your marketing subscriptions_",
    );
  });

  it("builds Meta's template components: text parameters in order, named ones with parameter_name, media headers by link", () => {
    expect(templateComponents(seasonal, { header: { "1": "Summer Sale" }, body: { "1": "a", "2": "b", "3": "c" } })).toEqual([
      { type: "header", parameters: [{ type: "text", text: "Summer Sale" }] },
      { type: "body", parameters: [{ type: "text", text: "a" }, { type: "text", text: "b" }, { type: "text", text: "c" }] },
    ]);
    const named = { header: { format: "IMAGE" as const }, body: "Order {{order_id}} is ready" };
    expect(templateComponents(named, { header: {}, body: { order_id: "42" } }, "https://cdn.example.com/a.jpg")).toEqual([
      { type: "header", parameters: [{ type: "image", image: { link: "https://cdn.example.com/a.jpg" } }] },
      { type: "body", parameters: [{ type: "text", parameter_name: "order_id", text: "42" }] },
    ]);
    expect(templateComponents({ header: null, body: "Hello" }, { header: {}, body: {} })).toEqual([]);
  });
});

describe("a template as the external API takes it (Meta's components or our values)", () => {
  it("reads positional and named text parameters, a media header's link, and lets `values` win", () => {
    const parsed = externalTemplateSchema.parse({
      name: "order_update",
      language: "pt_BR",
      values: { body: { "2": "#99" } },
      components: [
        { type: "HEADER", parameters: [{ type: "image", image: { link: "https://example.com/a.png" } }] },
        { type: "body", parameters: [{ type: "text", text: "Maria" }, { type: "text", text: "#12" }, { type: "text", parameter_name: "prazo", text: "amanhã" }] },
      ],
    });
    expect(parsed).toEqual({ name: "order_update", language: "pt_BR", values: { header: {}, body: { "1": "Maria", "2": "#99", prazo: "amanhã" } }, headerMediaUrl: "https://example.com/a.png" });
    expect(valuesFromComponents([{ type: "header", parameters: [{ type: "text", text: "Promo" }] }])).toEqual({ values: { header: { "1": "Promo" }, body: {} } });
  });

  it("refuses button components (our templates send none) and keeps our own shape as it is", () => {
    expect(externalTemplateSchema.safeParse({ name: "x", language: "pt_BR", components: [{ type: "button", parameters: [] }] }).success).toBe(false);
    expect(externalTemplateSchema.parse({ name: "x", language: "pt_BR", values: { body: { "1": "a" } } })).toEqual({ name: "x", language: "pt_BR", values: { header: {}, body: { "1": "a" } } });
  });
});
