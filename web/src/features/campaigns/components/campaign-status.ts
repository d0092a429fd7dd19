import type { CampaignStatus } from "@atende/shared/domain/campaigns/campaign";

/** i18n key of a status label (Inativa, Programada, Em Andamento, Cancelada, Finalizada). */
export const statusKey = (s: CampaignStatus) => `campaigns:status.${s}`;

/** Dates as the browser's locale shows them; "" when none. */
export const formatDateTime = (iso: string | null, lng: string) => (iso ? new Date(iso).toLocaleString(lng === "pt" ? "pt-BR" : lng, { dateStyle: "short", timeStyle: "short" }) : "");
