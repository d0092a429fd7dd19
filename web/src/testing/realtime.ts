import { act } from "@testing-library/react";
import type { RealtimeEvent } from "@atende/shared/contracts/ws-events";
import { deliverFrame } from "../lib/realtime";

/** Plays a server frame to the mounted components, as the WebSocket would deliver it. */
export const emitRealtime = (event: RealtimeEvent, data: unknown) => act(() => deliverFrame({ channel: "test", event, data }));
