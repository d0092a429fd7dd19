import type { ReportRow } from "../../contracts/http/reports";
import { zoneOffsetMs } from "../format/time-zone";

/**
 * The columns of the report's CSV and XLSX exports (docs/adr/0034-reports.md), with their headers in the three
 * languages (the file is written in the language of whoever asked for it). Dates are the company's wall time;
 * durations are seconds, written as [h]:mm:ss.
 */
export type ReportLocale = "pt" | "en" | "es";
export type CellKind = "text" | "number" | "date" | "duration";
export type ReportColumn = { key: string; kind: CellKind; header: Record<ReportLocale, string>; value: (r: ReportRow) => string | number | null };

const names = (xs: { name: string }[]) => xs.map((x) => x.name).join(" > ");
const statusLabel: Record<ReportLocale, Record<ReportRow["status"], string>> = {
  pt: { pending: "Aguardando", open: "Em atendimento", closed: "Finalizado" },
  en: { pending: "Waiting", open: "In progress", closed: "Closed" },
  es: { pending: "En espera", open: "En atención", closed: "Finalizado" },
};
const slaLabel: Record<ReportLocale, Record<"met" | "breached" | "running", string>> = {
  pt: { met: "Cumprido", breached: "Violado", running: "Em curso" },
  en: { met: "Met", breached: "Breached", running: "Running" },
  es: { met: "Cumplido", breached: "Incumplido", running: "En curso" },
};
const yesNo: Record<ReportLocale, [string, string]> = { pt: ["Sim", "Não"], en: ["Yes", "No"], es: ["Sí", "No"] };

export const reportColumns = (locale: ReportLocale): ReportColumn[] => {
  const sla = (v: ReportRow["sla"]["overall"]) => (v ? slaLabel[locale][v] : "");
  return [
    { key: "protocol", kind: "text", header: { pt: "Protocolo", en: "Protocol", es: "Protocolo" }, value: (r) => r.protocol ?? "" },
    { key: "ticketId", kind: "number", header: { pt: "Ticket", en: "Ticket", es: "Ticket" }, value: (r) => r.ticketId },
    { key: "contact", kind: "text", header: { pt: "Contato", en: "Contact", es: "Contacto" }, value: (r) => r.contact?.name ?? "" },
    { key: "number", kind: "text", header: { pt: "Número", en: "Number", es: "Número" }, value: (r) => r.contact?.number ?? "" },
    { key: "whatsapp", kind: "text", header: { pt: "Conexão", en: "Connection", es: "Conexión" }, value: (r) => r.whatsapp?.name ?? "" },
    { key: "queue", kind: "text", header: { pt: "Fila", en: "Queue", es: "Cola" }, value: (r) => r.queue?.name ?? "" },
    { key: "queuePath", kind: "text", header: { pt: "Caminho de filas", en: "Queue path", es: "Recorrido de colas" }, value: (r) => names(r.queuePath) },
    { key: "user", kind: "text", header: { pt: "Atendente", en: "Attendant", es: "Agente" }, value: (r) => r.user?.name ?? "" },
    { key: "users", kind: "text", header: { pt: "Atendentes", en: "Attendants", es: "Agentes" }, value: (r) => names(r.users) },
    { key: "status", kind: "text", header: { pt: "Status", en: "Status", es: "Estado" }, value: (r) => statusLabel[locale][r.status] },
    { key: "queuedAt", kind: "date", header: { pt: "Aberto em", en: "Opened at", es: "Abierto el" }, value: (r) => r.queuedAt },
    { key: "firstResponseAt", kind: "date", header: { pt: "Primeira resposta em", en: "First response at", es: "Primera respuesta el" }, value: (r) => r.firstResponseAt },
    { key: "finishedAt", kind: "date", header: { pt: "Finalizado em", en: "Closed at", es: "Finalizado el" }, value: (r) => r.finishedAt },
    { key: "wait", kind: "duration", header: { pt: "Espera", en: "Wait", es: "Espera" }, value: (r) => r.waitSeconds },
    { key: "firstResponse", kind: "duration", header: { pt: "Tempo de primeira resposta", en: "First response time", es: "Tiempo de primera respuesta" }, value: (r) => r.firstResponseSeconds },
    { key: "handling", kind: "duration", header: { pt: "Tempo de atendimento", en: "Handling time", es: "Tiempo de atención" }, value: (r) => r.handlingSeconds },
    { key: "abandoned", kind: "text", header: { pt: "Abandonado", en: "Abandoned", es: "Abandonado" }, value: (r) => yesNo[locale][r.abandoned ? 0 : 1] },
    { key: "rating", kind: "number", header: { pt: "Avaliação", en: "Rating", es: "Valoración" }, value: (r) => r.rating },
    { key: "slaFirstResponse", kind: "text", header: { pt: "SLA 1ª resposta", en: "SLA first response", es: "SLA 1ª respuesta" }, value: (r) => sla(r.sla.firstResponse) },
    { key: "slaResolution", kind: "text", header: { pt: "SLA resolução", en: "SLA resolution", es: "SLA resolución" }, value: (r) => sla(r.sla.resolution) },
    { key: "sla", kind: "text", header: { pt: "SLA", en: "SLA", es: "SLA" }, value: (r) => sla(r.sla.overall) },
    { key: "tags", kind: "text", header: { pt: "Tags", en: "Tags", es: "Etiquetas" }, value: (r) => r.tags.map((t) => t.name).join(", ") },
  ];
};

/**
 * A wall-time formatter for one time zone: the zone's offset is looked up once per hour of UTC (offsets change on
 * hour boundaries), so 100,000 rows do not build 300,000 Intl formatters.
 */
export const wallTimeIn = (timeZone: string) => {
  const offsets = new Map<number, number>();
  const offsetAt = (t: number) => {
    const hour = Math.floor(t / 3_600_000);
    let o = offsets.get(hour);
    if (o === undefined) {
      o = zoneOffsetMs(new Date(hour * 3_600_000), timeZone);
      offsets.set(hour, o);
    }
    return o;
  };
  /** the local time as milliseconds on a UTC clock (its ISO text is the wall time) */
  const localMs = (iso: string) => {
    const t = Date.parse(iso);
    return t + offsetAt(t);
  };
  return { localMs, text: (iso: string) => new Date(localMs(iso)).toISOString().slice(0, 19).replace("T", " ") };
};
/** An instant as the company's wall time, "YYYY-MM-DD HH:mm:ss". */
export const wallTime = (iso: string, timeZone: string) => wallTimeIn(timeZone).text(iso);
/** Seconds as [h]:mm:ss. */
export const clockDuration = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
};
