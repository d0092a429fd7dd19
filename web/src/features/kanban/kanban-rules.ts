import type { TagView } from "@atende/shared/contracts/http/tags";
import type { TicketView } from "@atende/shared/contracts/http/tickets";

/** A board lane: the first one ("open", no kanban tag) has no tag; the others are the kanban tags. */
export type Lane = { key: string; tagId: number | null; name: string; color: string };

export const OPEN_LANE_KEY = "open";
export const OPEN_LANE_COLOR = "#5C59A0";

export const lanesOf = (tags: TagView[], openName: string): Lane[] => [
  { key: OPEN_LANE_KEY, tagId: null, name: openName, color: OPEN_LANE_COLOR },
  ...tags.map((tag) => ({ key: `tag-${tag.id}`, tagId: tag.id, name: tag.name, color: tag.color })),
];

/** Each ticket goes to the lane of its first kanban tag; tickets without one go to the first lane. */
export const placeTickets = (lanes: Lane[], tickets: TicketView[]): Map<string, TicketView[]> => {
  const byTag = new Map(lanes.filter((l) => l.tagId !== null).map((l) => [l.tagId, l.key]));
  const out = new Map<string, TicketView[]>(lanes.map((l) => [l.key, []]));
  for (const ticket of tickets) {
    const key = ticket.tags.map((t) => byTag.get(t.id)).find((k) => k !== undefined) ?? OPEN_LANE_KEY;
    out.get(key)!.push(ticket);
  }
  return out;
};
