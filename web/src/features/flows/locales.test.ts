import { describe, expect, it } from "vitest";
import { CONDITION_OPS, FLOW_NODE_TYPES, QUESTION_VALIDATIONS } from "@atende/shared/domain/flows/flow";
import type { FlowIssueCode } from "@atende/shared/domain/flows/flow-validate";

/** Every flows string exists in pt, en and es; every node type, issue code, operator and validation has its text. */
const files = import.meta.glob<Record<string, unknown>>("../../locales/*/flows.json", { eager: true, import: "default" });
const keys = (obj: Record<string, unknown>, prefix = ""): string[] =>
  Object.entries(obj).flatMap(([k, v]) => (v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`])).sort();
const ISSUES: FlowIssueCode[] = ["NO_START", "MANY_STARTS", "DUPLICATED_NODE_ID", "EDGE_MISSING_NODE", "EDGE_UNKNOWN_HANDLE", "HANDLE_MANY_EDGES", "MENU_OPTION_NO_EDGE", "LOOP_WITHOUT_INPUT", "UNREACHABLE", "DEAD_END", "UNKNOWN_VARIABLE"];

describe("flows translations", () => {
  it("has the same keys in pt, en and es, none empty, and a text for every type, issue, operator and validation", () => {
    const [pt, en, es] = ["pt", "en", "es"].map((lng) => files[`../../locales/${lng}/flows.json`]);
    const all = keys(pt ?? {});
    expect(keys(en ?? {})).toEqual(all);
    expect(keys(es ?? {})).toEqual(all);
    expect(JSON.stringify([pt, en, es])).not.toMatch(/:""/);
    for (const t of FLOW_NODE_TYPES) expect(all).toContain(`type.${t}`);
    for (const c of ISSUES) expect(all).toContain(`issue.${c}`);
    for (const o of CONDITION_OPS) expect(all).toContain(`op.${o}`);
    for (const v of QUESTION_VALIDATIONS) expect(all).toContain(`validate.${v}`);
  });
});
