import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Profile } from "@atende/shared/domain/permissions/permissions";
import type { TicketStatus } from "@atende/shared/domain/tickets/ticket";
import { actionsFor, type TicketAction } from "@atende/shared/domain/tickets/ticket-transitions";
import { mockFetch } from "../../../../testing/fetch-mock";
import { aPlan, aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { aTicket } from "../testing/ticket-fixtures";
import { TicketCard } from "./ticket-card";
import { TicketHeader } from "./ticket-header";

const STATUSES: TicketStatus[] = ["pending", "open", "closed"];
const PROFILES: Profile[] = ["user", "supervisor", "admin"];
/** The pt labels of each action's button. */
const LABEL: Record<TicketAction, string> = { accept: "Aceitar", return: "Devolver", resolve: "Finalizar", reopen: "Reabrir", transfer: "Transferir", delete: "Excluir atendimento" };
const noop = () => undefined;
const TAGS = { "GET /api/tags/list": [] };
const labelsOf = (root: HTMLElement, role: "button" | "menuitem") =>
  within(root)
    .queryAllByRole(role)
    .map((b) => b.textContent ?? "")
    .filter((text) => Object.values(LABEL).includes(text));
const sorted = (xs: string[]) => [...xs].sort();

describe("ticket buttons follow the shared transition table", { timeout: 60_000 }, () => {
  it("the conversation header offers exactly the table's actions for each status and profile (transfer and delete in its menu)", async () => {
    for (const status of STATUSES)
      for (const profile of PROFILES) {
        mockFetch(TAGS);
        const ticket = aTicket({ id: 1, status, userId: status === "pending" ? null : 2, user: status === "pending" ? null : { id: 2, name: "Ana Admin" } });
        renderWithApp(<TicketHeader ticket={ticket} onContactClick={noop} />, { route: "/tickets", user: aUser({ profile }), plan: aPlan() });
        const allowed = actionsFor(status, profile);
        const header = screen.getByTestId("ticket-header");
        const buttons = labelsOf(header, "button");
        await userEvent.click(within(header).getByRole("button", { name: "Mais opções" }));
        const menu = labelsOf(await screen.findByRole("menu"), "menuitem");
        const where = `${status}/${profile}`;
        expect(sorted([...buttons, ...menu]), where).toEqual(sorted(allowed.map((a) => LABEL[a])));
        expect(menu.every((l) => l === LABEL.transfer || l === LABEL.delete), where).toBe(true);
        expect(menu.includes(LABEL.delete), where).toBe(profile === "admin");
        cleanup();
      }
  });

  it("a list card offers the table's actions for its status except return and delete", () => {
    for (const status of STATUSES)
      for (const profile of PROFILES) {
        mockFetch({});
        const ticket = aTicket({ id: 1, status });
        renderWithApp(<TicketCard ticket={ticket} selected={false} onOpen={noop} onAccept={noop} onClose={noop} onTransfer={noop} onReopen={noop} />, {
          route: "/tickets",
          user: aUser({ profile }),
          plan: aPlan(),
        });
        const want = actionsFor(status, profile).filter((a) => a !== "return" && a !== "delete");
        expect(sorted(labelsOf(screen.getByTestId("ticket-card"), "button")), `${status}/${profile}`).toEqual(sorted(want.map((a) => LABEL[a])));
        cleanup();
      }
  });

  it("the buttons run their action: the header's Finalizar on a pending ticket closes it", async () => {
    const { calls } = mockFetch({ ...TAGS, "PUT /api/tickets/5": aTicket({ id: 5, status: "closed" }) });
    renderWithApp(<TicketHeader ticket={aTicket({ id: 5, status: "pending", userId: null, user: null })} onContactClick={noop} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    await userEvent.click(screen.getByTestId("header-close"));
    await expect.poll(() => calls.some((c) => c.method === "PUT")).toBe(true);
    expect(await calls.find((c) => c.method === "PUT")!.json()).toEqual({ status: "closed", userId: aUser().id });
  });

  it("Devolver returns the ticket with its status only (a return, not a transfer to no one)", async () => {
    const { calls } = mockFetch({ ...TAGS, "PUT /api/tickets/6": aTicket({ id: 6, status: "pending", userId: null, user: null }) });
    renderWithApp(<TicketHeader ticket={aTicket({ id: 6, status: "open" })} onContactClick={noop} />, { route: "/tickets", user: aUser(), plan: aPlan() });
    await userEvent.click(screen.getByTestId("header-return"));
    await expect.poll(() => calls.some((c) => c.method === "PUT")).toBe(true);
    expect(await calls.find((c) => c.method === "PUT")!.json()).toEqual({ status: "pending" });
  });
});
