import { expect, it } from "vitest";
import { planClaims, planShare } from "./fleet";

const h = (hostId: string, load: number, capacity = 10) => ({ hostId, load, capacity });

it("fills the least-loaded hosts first, up to the same level", () => {
  // A holds 4, B 0, C 2; 4 orphans: B takes 3 and C 1 (level 3 would place 3+1 = 4), A none
  expect(planClaims(h("A", 4), [h("B", 0), h("C", 2)], 4)).toEqual({ quota: 0, waiting: 0 });
  expect(planClaims(h("B", 0), [h("A", 4), h("C", 2)], 4)).toEqual({ quota: 3, waiting: 0 });
  expect(planClaims(h("C", 2), [h("A", 4), h("B", 0)], 4)).toEqual({ quota: 1, waiting: 0 });
  // equal hosts share evenly (each may claim its share; conditional acquisition settles ties)
  expect(planClaims(h("A", 0, 200), [h("B", 0, 200), h("C", 0, 200)], 300)).toEqual({ quota: 100, waiting: 0 });
});

it("never plans over a host's capacity; what no host has room for waits", () => {
  expect(planClaims(h("A", 1, 3), [h("B", 3, 3)], 5)).toEqual({ quota: 2, waiting: 3 });
  expect(planClaims(h("B", 3, 3), [h("A", 1, 3)], 5)).toEqual({ quota: 0, waiting: 3 });
  expect(planClaims(h("A", 0, 2), [], 0)).toEqual({ quota: 0, waiting: 0 });
  // alone: takes all it has room for
  expect(planClaims(h("A", 0, 50), [], 7)).toEqual({ quota: 7, waiting: 0 });
});

it("hosts that plan from the same registry read claim disjoint slices that cover every placeable orphan", () => {
  // B and C equal (a dead host's 100 connections): B (first in id order) the first 50, C the next 50
  expect(planShare(h("B", 100, 160), [h("C", 100, 160)], 100)).toEqual({ offset: 0, quota: 50, waiting: 0 });
  expect(planShare(h("C", 100, 160), [h("B", 100, 160)], 100)).toEqual({ offset: 50, quota: 50, waiting: 0 });
  // uneven loads, one host full: the slices still tile the placeable orphans exactly
  const fleet = [h("A", 4), h("B", 0), h("C", 2), h("D", 10)];
  const shares = fleet.map((me) => planShare(me, fleet.filter((o) => o !== me), 12));
  const covered = shares.flatMap((s) => Array.from({ length: s.quota }, (_, i) => s.offset + i)).sort((a, b) => a - b);
  expect(covered).toEqual(Array.from({ length: 12 }, (_, i) => i));
  expect(shares.map((s) => s.quota)).toEqual([2, 6, 4, 0]);
});
