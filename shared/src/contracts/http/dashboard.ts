/** GET /dashboard?days= | date_from&date_to */
export type DashboardResponse = {
  counters: {
    supportHappening: number;
    supportPending: number;
    supportFinished: number;
    /** minutes */
    avgSupportTime: number;
    /** minutes */
    avgWaitTime: number;
    totalWhatsappSessions?: number;
    totalCompanies?: number;
  };
  attendants: { id: number; name: string; rating: number; avgSupportTime: number; online: boolean; tickets: number }[];
};

/**
 * GET /dashboard/ticketsDay, with the reference's field names the spec's clients read: `data` (the company's calendar
 * day, yyyy-MM-dd) for a range of days, `horario` (the hour in the company's time zone, "00".."23") when the range is
 * one day. `count`: tickets in the range.
 */
export type TicketsDayItem = { data: string; total: number } | { horario: string; total: number };
export type TicketsDayResponse = { data: TicketsDayItem[]; count: number };
/** GET /dashboard/ticketsUsers: tickets per attendant (`nome`, `quantidade`, the reference's names). */
export type TicketsUsersResponse = { data: { nome: string; quantidade: number }[]; count: number };
