import { useEffect, useRef, useSyncExternalStore } from "react";
import type { ClientFrame, RealtimeEvent, ServerFrame } from "@atende/shared/contracts/ws-events";
import { ApiError, refreshSession } from "./api-client";
import { getToken } from "./session-storage";

/**
 * ONE WebSocket per tab (spec 1 section 7 "Realtime").
 * - URL from GET /config.json: `{ wsUrl: "wss://..." }` (AWS) or `{ wsPath: "/ws" }` (local, same origin); `?token=`.
 * - Server frames `{ channel, event, data }` go to `useRealtime(event, handler)` subscribers.
 * - Rooms: `useRealtimeRoom("joinTickets", "open")` sends the join, the leave on unmount, and rejoins after a reconnect.
 * - Lost connection: reconnect with backoff using a refreshed token; if the refresh fails the session is over -> reload.
 * - Every time the socket opens, first time included, `onRealtimeOpen` listeners run with the moment it opened: frames
 *   published before that (and during the handshake, when API Gateway refuses posts to the socket) never arrive, so
 *   the app refetches whatever it read before then.
 * - `userStatus` every 5 minutes while connected.
 */
export const USER_STATUS_INTERVAL_MS = 300_000;
const BACKOFF_MS = [1000, 2000, 5000, 10_000, 20_000, 30_000];

type Handler = (data: unknown, frame: ServerFrame) => void;
type JoinAction = "joinNotification" | "joinTickets" | "joinChatBox";
type LeaveAction = "leaveNotification" | "leaveTickets" | "leaveChatBox";
const LEAVE_OF: Record<JoinAction, LeaveAction> = { joinNotification: "leaveNotification", joinTickets: "leaveTickets", joinChatBox: "leaveChatBox" };

type RuntimeConfig = { wsUrl?: string; wsPath?: string };
let configPromise: Promise<RuntimeConfig> | null = null;
const runtimeConfig = () => {
  configPromise ??= fetch("/config.json")
    .then((res) => (res.ok ? (res.json() as Promise<RuntimeConfig>) : {}))
    .catch(() => {
      configPromise = null;
      return {};
    });
  return configPromise;
};

export const socketUrl = (config: RuntimeConfig, token: string, origin = location.origin) => {
  const base = config.wsUrl ?? `${origin.replace(/^http/, "ws")}${config.wsPath ?? "/ws"}`;
  return `${base}${base.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
};

const handlers = new Map<string, Set<Handler>>();
export type RealtimeOpened = { openedAt: number; reconnect: boolean };
const openListeners = new Set<(opened: RealtimeOpened) => void>();
/** room key ("joinTickets|open") -> how many components want it */
const rooms = new Map<string, number>();

export type RealtimeStatus = "idle" | "connecting" | "open" | "reconnecting";
let status: RealtimeStatus = "idle";
const statusListeners = new Set<() => void>();
const setStatus = (next: RealtimeStatus) => {
  status = next;
  statusListeners.forEach((listener) => listener());
};

let socket: WebSocket | null = null;
let wanted = false;
let attempt = 0;
let everOpened = false;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
let statusTimer: ReturnType<typeof setInterval> | undefined;

const sendFrame = (frame: ClientFrame) => {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
};

const roomFrame = (key: string, leave = false): ClientFrame => {
  const [action, data] = key.split("|") as [JoinAction, string];
  const name = leave ? LEAVE_OF[action] : action;
  return (data ? { action: name, data } : { action: name }) as ClientFrame;
};

/** Bumped by connect/disconnect so an open() still waiting for /config.json gives up. */
let generation = 0;

const open = async () => {
  const gen = generation;
  const token = getToken();
  if (!wanted || !token) return;
  const config = await runtimeConfig();
  if (!wanted || gen !== generation || socket) return;
  const ws = new WebSocket(socketUrl(config, token));
  socket = ws;
  ws.onopen = () => {
    const isReconnect = everOpened;
    setStatus("open");
    everOpened = true;
    attempt = 0;
    for (const key of rooms.keys()) sendFrame(roomFrame(key));
    sendFrame({ action: "userStatus" });
    clearInterval(statusTimer);
    statusTimer = setInterval(() => sendFrame({ action: "userStatus" }), USER_STATUS_INTERVAL_MS);
    deliverOpen({ openedAt: Date.now(), reconnect: isReconnect });
  };
  ws.onmessage = (message) => {
    let frame: ServerFrame;
    try {
      frame = JSON.parse(String(message.data)) as ServerFrame;
    } catch {
      return;
    }
    deliverFrame(frame);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    clearInterval(statusTimer);
    setStatus(wanted ? "reconnecting" : "idle");
    if (wanted) scheduleReconnect();
  };
};

const scheduleReconnect = () => {
  const delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? 30_000;
  attempt += 1;
  clearTimeout(reconnectTimer);
  reconnectTimer = setTimeout(() => {
    if (!wanted) return;
    refreshSession().then(
      () => void open(),
      (err: unknown) => {
        // A refused refresh (401/403): the session expired, start over. Server down or failing: keep trying.
        if (err instanceof ApiError && (err.status === 401 || err.status === 403)) location.reload();
        else scheduleReconnect();
      },
    );
  }, delay);
};

/** Opens the tab's socket (idempotent). Called by the session provider once logged in. */
export const connectRealtime = () => {
  if (wanted) return;
  wanted = true;
  generation += 1;
  everOpened = false;
  attempt = 0;
  setStatus("connecting");
  void open();
};

/** Closes the socket for good (logout). */
export const disconnectRealtime = () => {
  wanted = false;
  generation += 1;
  clearTimeout(reconnectTimer);
  clearInterval(statusTimer);
  const ws = socket;
  socket = null;
  ws?.close();
  setStatus("idle");
};

/** "open" once the socket is up (the layout exposes it as data-realtime for tests). */
export const useRealtimeStatus = () =>
  useSyncExternalStore(
    (listener) => {
      statusListeners.add(listener);
      return () => {
        statusListeners.delete(listener);
      };
    },
    () => status,
  );

/** Tells the open listeners the socket is up, as the socket does (tests play a reconnect with it). */
export const deliverOpen = (opened: RealtimeOpened) => openListeners.forEach((listener) => listener(opened));

/** Hands a server frame to its event's subscribers, as the socket does (tests play server frames with it). */
export const deliverFrame = (frame: ServerFrame) => handlers.get(frame.event)?.forEach((handler) => handler(frame.data, frame));

export const subscribeRealtime = (event: RealtimeEvent, handler: Handler) => {
  let set = handlers.get(event);
  if (!set) handlers.set(event, (set = new Set()));
  set.add(handler);
  return () => {
    set.delete(handler);
  };
};

export const onRealtimeOpen = (listener: (opened: RealtimeOpened) => void) => {
  openListeners.add(listener);
  return () => {
    openListeners.delete(listener);
  };
};

/** Joins a room until the returned function is called. */
export const joinRoom = (action: JoinAction, data?: string) => {
  const key = `${action}|${data ?? ""}`;
  const count = rooms.get(key) ?? 0;
  rooms.set(key, count + 1);
  if (count === 0) sendFrame(roomFrame(key));
  return () => {
    const left = (rooms.get(key) ?? 1) - 1;
    if (left > 0) rooms.set(key, left);
    else {
      rooms.delete(key);
      sendFrame(roomFrame(key, true));
    }
  };
};

/** Runs `handler(data, frame)` for every server frame of `event` while the component is mounted. */
export function useRealtime<T = unknown>(event: RealtimeEvent, handler: (data: T, frame: ServerFrame<T>) => void) {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => subscribeRealtime(event, (data, frame) => ref.current(data as T, frame as ServerFrame<T>)), [event]);
}

/** Keeps this tab in a room while mounted: `useRealtimeRoom("joinChatBox", ticketUuid)`. Pass enabled=false to skip. */
export function useRealtimeRoom(action: JoinAction, data?: string, enabled = true) {
  useEffect(() => (enabled ? joinRoom(action, data) : undefined), [action, data, enabled]);
}
