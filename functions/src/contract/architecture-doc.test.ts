import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * docs/architecture.md names the file of each step of a customer message's way (issue 35): every path it names
 * must exist, so a move that forgets the page fails here. Paths are read wherever they stand (the picture, the words).
 */
const repo = new URL("../../../", import.meta.url);
const PATH = /\b(?:functions|session-host|web|infra|shared|local-sqs)\/[A-Za-z0-9_.\/-]+\.(?:tsx?|md)\b/g;

export const namedPaths = (text: string): string[] => [...new Set(text.match(PATH) ?? [])];

describe("docs/architecture.md", () => {
  const text = readFileSync(new URL("docs/architecture.md", repo), "utf8");

  it("names the files of the flow, both ways and for both kinds of connection", () => {
    const paths = namedPaths(text);
    expect(paths.length).toBeGreaterThanOrEqual(30);
    for (const part of ["session-host/src/", "functions/src/handlers/", "functions/src/features/inbox/", "functions/src/platform/channels/", "web/src/"]) {
      expect(paths.some((p) => p.startsWith(part)), part).toBe(true);
    }
  });

  it("names only files that exist", () => {
    const missing = namedPaths(text).filter((p) => !existsSync(new URL(p, repo)));
    expect(missing).toEqual([]);
  });

  it("finds a path that does not exist (the check can fail)", () => {
    const missing = namedPaths("see `functions/src/features/inbox/nowhere.service.ts` and web/src/lib/realtime.ts").filter((p) => !existsSync(new URL(p, repo)));
    expect(missing).toEqual(["functions/src/features/inbox/nowhere.service.ts"]);
  });
});
