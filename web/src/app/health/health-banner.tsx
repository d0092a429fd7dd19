import Alert from "@mui/material/Alert";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { API_BASE } from "../../lib/api-client";
import { appKeys } from "../../lib/query-keys";

export type ApiHealth = { status: "ok" | "degraded"; checks?: Record<string, string> };

/** How often the app asks GET /api/health: every 2 minutes while all is well, every 20 s while degraded. */
export const HEALTH_POLL_MS = { ok: 120_000, degraded: 20_000 } as const;

/** 200 and 503 both carry the health body; a network failure or a 5xx without it counts as degraded too. */
const fetchHealth = async (): Promise<ApiHealth> => {
  try {
    const res = await fetch(`${API_BASE}/health`, { cache: "no-store" });
    const body = (await res.json().catch(() => undefined)) as ApiHealth | undefined;
    if (body?.status === "ok" || body?.status === "degraded") return body;
    return { status: res.ok ? "ok" : "degraded" };
  } catch {
    return { status: "degraded" };
  }
};

/** A banner across the top while the API reports itself degraded (table or queues not answering). */
export function HealthBanner() {
  const { t } = useTranslation("health");
  const { data } = useQuery({
    queryKey: appKeys.health(),
    queryFn: fetchHealth,
    refetchInterval: (query) => (query.state.data?.status === "degraded" ? HEALTH_POLL_MS.degraded : HEALTH_POLL_MS.ok),
    refetchOnWindowFocus: true,
    retry: false,
    staleTime: 0,
  });
  if (data?.status !== "degraded") return null;
  return (
    <Alert severity="warning" variant="filled" role="alert" sx={{ borderRadius: 0, position: "sticky", top: 0, zIndex: (theme) => theme.zIndex.appBar + 1 }}>
      {t("degraded")}
    </Alert>
  );
}
