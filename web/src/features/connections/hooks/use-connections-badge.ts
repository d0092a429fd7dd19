import { useEffect, useState } from "react";
import { CONNECTION_ALERT_STATUSES, DEBOUNCE_CONNECTION_BADGE_MS } from "@atende/shared/constants/business";
import type { WhatsappResponse } from "@atende/shared/contracts/http/whatsapps";
import { useQueryClient } from "@tanstack/react-query";
import { useIsAdmin } from "../../../lib/session/session-context";
import { useRealtime } from "../../../lib/realtime";
import { putWhatsappInCache } from "../api/whatsapps";
import { useWhatsapps } from "../../../lib/pickers";

export const needsAttention = (list: Pick<WhatsappResponse, "status">[]) => list.some((w) => CONNECTION_ALERT_STATUSES.includes(w.status));

/**
 * The side menu's red badge on Conexões: on when any connection is qrcode, PAIRING, DISCONNECTED, TIMEOUT or
 * OPENING, judged 2000 ms after the last change (a reconnect blip does not flash it). Admins only.
 */
export const useConnectionsBadge = (): boolean => {
  const isAdmin = useIsAdmin();
  const qc = useQueryClient();
  const whatsapps = useWhatsapps(isAdmin);
  const [alert, setAlert] = useState(false);
  useRealtime<{ action: string; session: WhatsappResponse }>("whatsappSession", (data) => isAdmin && data.action === "update" && putWhatsappInCache(qc, data.session));
  const wanted = isAdmin && needsAttention(whatsapps.data ?? []);
  useEffect(() => {
    const timer = setTimeout(() => setAlert(wanted), DEBOUNCE_CONNECTION_BADGE_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  return alert;
};
