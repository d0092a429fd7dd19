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

/** GET /dashboard/ticketsUsers and /dashboard/ticketsDay */
export type DashboardChartResponse = { data: { label: string; total: number }[]; count: number };
