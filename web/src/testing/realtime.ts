import { act } from "@testing-library/react";
import type { RealtimeEvent } from "@atende/shared/contracts/ws-events";
import { deliverFrame, deliverOpen } from "../lib/realtime";

/** Plays a server frame to the mounted components, as the WebSocket would deliver it. */
export const emitRealtime = (event: RealtimeEvent, data: unknown) => act(() => deliverFrame({ channel: "test", event, data }));

/** Plays the socket opening again after a drop (what the app's open listeners see on a reconnect). */
export const emitRealtimeReopen = () => act(() => deliverOpen({ openedAt: Date.now(), reconnect: true }));
