import type { PushPublicKeyResponse } from "@atende/shared/contracts/http/push";
import { api, apiRequest } from "../../lib/api-client";
import i18n from "../../lib/i18n";

/** Whether this browser can receive Web Push at all (a service worker, the Push API, notifications). */
export const pushSupported = () => typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

const langOf = (): "pt" | "en" | "es" => {
  const l = (i18n.language ?? "pt").slice(0, 2);
  return l === "en" || l === "es" ? l : "pt";
};

/** This device's subscription, if it has one. */
export const currentSubscription = async (): Promise<PushSubscription | null> => {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration();
  return (await reg?.pushManager.getSubscription()) ?? null;
};

/**
 * Turns notifications on for this device: the permission (asked on the user's click), the browser's subscription with
 * our VAPID key, then POST /push/subscriptions. Answers false when the user refused the permission.
 */
export const enablePush = async (): Promise<boolean> => {
  if ((await Notification.requestPermission()) !== "granted") return false;
  const reg = await navigator.serviceWorker.ready;
  const { publicKey } = await api.get<PushPublicKeyResponse>("/push/public-key");
  const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
  await api.post("/push/subscriptions", { ...sub.toJSON(), lang: langOf() });
  return true;
};

/** Turns them off for this device: the server forgets the endpoint, the browser the subscription. */
export const disablePush = async (): Promise<void> => {
  const sub = await currentSubscription();
  if (!sub) return;
  await apiRequest("/push/subscriptions", { method: "DELETE", body: { endpoint: sub.endpoint } }).catch(() => undefined);
  await sub.unsubscribe().catch(() => false);
};

/** Logout: this device stops receiving the user's notifications (the next user of the browser subscribes anew). */
export const forgetPushDevice = async (): Promise<void> => {
  try {
    await disablePush();
  } catch {
    // logging out never waits on this
  }
};
