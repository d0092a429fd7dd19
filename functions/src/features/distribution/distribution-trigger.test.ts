import { describe, expect, it } from "vitest";
import type { JobMessage } from "@atende/shared/contracts/job-messages";
import type { TicketSnapshot } from "../inbox/inbox-ports";
import { createDistributionTrigger, DISTRIBUTION_JOB } from "./distribution-trigger";

const ticket = (over: Partial<TicketSnapshot> = {}): TicketSnapshot => ({ id: 1, companyId: 7, status: "pending", userId: null, queueId: 3, contactId: 1, isGroup: false, bot: { stage: "done" }, ...over });

const setup = (queuesOn: number[]) => {
  const jobs: JobMessage[] = [];
  const trigger = createDistributionTrigger({ repo: { queuesOn: async () => queuesOn }, jobs: { enqueue: async (job) => void jobs.push(job) } });
  const hints = () => jobs.map((j) => (j.type === "feature" && j.name === DISTRIBUTION_JOB ? j.payload : null));
  return { trigger, hints };
};

describe("distribution trigger (docs/adr/0032)", () => {
  it("a ticket that starts waiting in a queue with distribution on queues a run for that queue", async () => {
    const { trigger, hints } = setup([3]);
    await trigger.ticketChanged(null, ticket()); // created straight into the queue
    await trigger.ticketChanged(ticket({ queueId: null, bot: { stage: "queues" } }), ticket()); // the customer chose the queue
    await trigger.ticketChanged(ticket({ status: "open", userId: 4 }), ticket()); // returned to the queue
    expect(hints()).toEqual([{ queueId: 3 }, { queueId: 3 }, { queueId: 3 }, { userId: 4 }]);
  });

  it("no run for a ticket still choosing, a group, a queue that is off, an owned ticket, or a message on a waiting ticket", async () => {
    const { trigger, hints } = setup([3]);
    await trigger.ticketChanged(null, ticket({ bot: { stage: "options" } }));
    await trigger.ticketChanged(null, ticket({ isGroup: true }));
    await trigger.ticketChanged(null, ticket({ queueId: 9 }));
    await trigger.ticketChanged(null, ticket({ status: "open", userId: 4 }));
    await trigger.ticketChanged(ticket(), ticket());
    expect(hints()).toEqual([]);
  });

  it("an open ticket that closes, is transferred or returned frees its owner's slot: a run for that attendant", async () => {
    const { trigger, hints } = setup([3]);
    await trigger.ticketChanged(ticket({ status: "open", userId: 4 }), ticket({ status: "closed", userId: 4 }));
    await trigger.ticketChanged(ticket({ status: "open", userId: 4 }), ticket({ status: "open", userId: 5 }));
    await trigger.ticketChanged(ticket({ status: "open", userId: 4 }), ticket({ status: "open", userId: 4 })); // a message: nothing
    expect(hints()).toEqual([{ userId: 4 }, { userId: 4 }]);
  });

  it("a company without any queue on gets no job at all; an attendant coming online gets a reconciling run", async () => {
    const off = setup([]);
    await off.trigger.ticketChanged(null, ticket());
    await off.trigger.agentAvailable(7, 4);
    expect(off.hints()).toEqual([]);
    const on = setup([3]);
    await on.trigger.agentAvailable(7, 4);
    expect(on.hints()).toEqual([{ userId: 4, reconcile: true }]);
  });
});
