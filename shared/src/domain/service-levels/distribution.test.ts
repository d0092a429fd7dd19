import { describe, expect, it } from "vitest";
import { canTake, rankAgents, type AgentSlot } from "./distribution";

const agent = (userId: number, over: Partial<AgentSlot> = {}): AgentSlot => ({ userId, status: "online", capacity: 3, openTickets: 0, lastAssignedAt: null, queueIds: [1], ...over });

describe("distribution", () => {
  it("never offers a paused, offline, full or other-queue attendant", () => {
    const agents = [agent(1, { status: "paused" }), agent(2, { status: "offline" }), agent(3, { openTickets: 3 }), agent(4, { queueIds: [2] }), agent(5)];
    expect(rankAgents("roundRobin", 1, agents).map((a) => a.userId)).toEqual([5]);
    expect(rankAgents("leastBusy", 1, agents).map((a) => a.userId)).toEqual([5]);
    expect(rankAgents("off", 1, agents)).toEqual([]);
    expect(canTake(agent(6, { capacity: 0 }), 1)).toBe(false);
  });

  it("round robin: whoever waited longest since the last assignment (never assigned first, then by id)", () => {
    const agents = [agent(1, { lastAssignedAt: "2026-11-24T10:00:00Z" }), agent(2, { lastAssignedAt: "2026-11-24T09:00:00Z" }), agent(3), agent(4)];
    expect(rankAgents("roundRobin", 1, agents).map((a) => a.userId)).toEqual([3, 4, 2, 1]);
  });

  it("least busy: fewest open tickets, ties to whoever waited longest", () => {
    const agents = [agent(1, { openTickets: 2 }), agent(2, { openTickets: 1, lastAssignedAt: "2026-11-24T10:00:00Z" }), agent(3, { openTickets: 1, lastAssignedAt: "2026-11-24T08:00:00Z" })];
    expect(rankAgents("leastBusy", 1, agents).map((a) => a.userId)).toEqual([3, 2, 1]);
  });

  it("the customer's own attendant first when free, else the normal order", () => {
    const agents = [agent(1), agent(2, { lastAssignedAt: "2026-11-24T10:00:00Z" })];
    expect(rankAgents("roundRobin", 1, agents, 2).map((a) => a.userId)).toEqual([2, 1]);
    expect(rankAgents("roundRobin", 1, [agent(1), agent(2, { status: "paused" })], 2).map((a) => a.userId)).toEqual([1]);
  });

  it("a burst of 200 tickets over 5 attendants: none over capacity, spread even, the rest wait", () => {
    const agents = [1, 2, 3, 4, 5].map((id) => agent(id, { capacity: 30 }));
    let waiting = 0;
    for (let i = 0; i < 200; i++) {
      const [first] = rankAgents("roundRobin", 1, agents);
      if (!first) {
        waiting++;
        continue;
      }
      first.openTickets++;
      first.lastAssignedAt = new Date(Date.UTC(2026, 10, 24, 10, 0, i)).toISOString();
    }
    expect(agents.map((a) => a.openTickets)).toEqual([30, 30, 30, 30, 30]);
    expect(waiting).toBe(50);
  });
});

describe("distribution: assignments within one millisecond", () => {
  it("the stored stamp (time + ticket id) keeps round robin turning when the clock did not move", () => {
    const at = "2026-11-24T10:00:00.000Z";
    const agents = [agent(1, { lastAssignedAt: `${at}#0000000012` }), agent(2, { lastAssignedAt: `${at}#0000000011` }), agent(3, { lastAssignedAt: `${at}#0000000013` })];
    expect(rankAgents("roundRobin", 1, agents).map((a) => a.userId)).toEqual([2, 1, 3]);
    expect(rankAgents("leastBusy", 1, [agent(1, { lastAssignedAt: `${at}#0000000002` }), agent(2, { lastAssignedAt: `${at}#0000000001` })]).map((a) => a.userId)).toEqual([2, 1]);
  });
});
