import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { mockFetch } from "../../../../testing/fetch-mock";
import { aUser } from "../../../../testing/fixtures";
import { renderWithApp } from "../../../../testing/render";
import { WhisperBubble } from "./whisper-bubble";
import { WhisperInput } from "./whisper-input";

const whisper = {
  id: "WSP1",
  companyId: 1,
  ticketId: 5,
  contactId: 2,
  body: "Ofereça o plano anual",
  fromMe: true,
  mediaType: "chat" as const,
  mediaUrl: null,
  mediaMimetype: null,
  mediaName: null,
  quotedMsgId: null,
  isDeleted: false,
  isEdited: false,
  isForwarded: false,
  ack: 0,
  error: null,
  reactions: [],
  participant: null,
  internal: true,
  queueId: 1,
  userId: 9,
  createdAt: "2026-11-29T10:00:00.000Z",
  updatedAt: "2026-11-29T10:00:00.000Z",
  quotedMsg: null,
  contact: null,
};

describe("whispers in the conversation (issue 34)", { timeout: 20_000 }, () => {
  it("a whisper is shown apart, labelled team-only, without the message menu", async () => {
    renderWithApp(<WhisperBubble message={whisper} />, { user: aUser({ profile: "user" }) });
    const bubble = await screen.findByTestId("whisper");
    expect(bubble).toHaveTextContent("Sussurro · só a equipe vê");
    expect(bubble).toHaveTextContent("Ofereça o plano anual");
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });

  it("a supervisor watching another attendant's ticket gets the monitoring note and whispers through the API", async () => {
    const fetch = mockFetch({ "POST /api/tickets/5/whispers": () => whisper });
    renderWithApp(<WhisperInput ticket={{ id: 5, userId: 3, status: "open" }} />, { user: aUser({ id: 9, profile: "supervisor" }) });
    expect(await screen.findByTestId("monitoring-note")).toBeInTheDocument();
    fireEvent.change(screen.getByTestId("whisper-text"), { target: { value: "Ofereça o plano anual" } });
    fireEvent.click(screen.getByTestId("whisper-send"));
    await waitFor(() => expect(fetch.calls.some((r) => r.url.endsWith("/api/tickets/5/whispers"))).toBe(true));
    const sent = fetch.calls.find((r) => r.url.endsWith("/api/tickets/5/whispers"))!;
    expect(await sent.json()).toEqual({ body: "Ofereça o plano anual" });
  });

  it("an attendant, or the ticket's own owner, gets no whisper box", async () => {
    mockFetch({});
    const { unmount } = renderWithApp(<WhisperInput ticket={{ id: 5, userId: 3, status: "open" }} />, { user: aUser({ id: 4, profile: "user" }) });
    expect(screen.queryByTestId("whisper-input")).not.toBeInTheDocument();
    unmount();
    renderWithApp(<WhisperInput ticket={{ id: 5, userId: 9, status: "open" }} />, { user: aUser({ id: 9, profile: "supervisor" }) });
    expect(screen.queryByTestId("whisper-input")).not.toBeInTheDocument();
  });
});
