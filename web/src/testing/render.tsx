import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { MemoryRouter, Route, Routes } from "react-router";
import type { SessionUser } from "@atende/shared/contracts/http/auth";
import type { Plan } from "@atende/shared/domain/plans/plan";
import { AppProviders } from "../app/providers";
import { companyPlanQueryOptions } from "../features/auth/api/company-plan";
import { meQueryOptions } from "../lib/session/me";
import { createQueryClient } from "../lib/query-client";
import { saveSession } from "../lib/session-storage";
import { aPlan } from "./fixtures";

/**
 * Renders `ui` inside the app's providers and a memory router at `route`.
 * With `user` (and `plan`, default: every flag on) the session starts signed in without any HTTP call.
 * `path` is the route pattern the element is mounted on (default: the route itself).
 */
export const renderWithApp = (ui: ReactElement, opts: { route?: string; path?: string; user?: SessionUser; plan?: Plan } = {}) => {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: Infinity } });
  if (opts.user) {
    queryClient.setQueryData(meQueryOptions().queryKey, opts.user);
    const plan = opts.plan ?? aPlan();
    queryClient.setQueryData(companyPlanQueryOptions(opts.user.companyId).queryKey, { id: opts.user.companyId, name: opts.user.company.name, dueDate: opts.user.company.dueDate, plan });
    saveSession("test-token", opts.user);
  }
  const route = opts.route ?? "/";
  const result = render(
    <AppProviders queryClient={queryClient} realtime={false}>
      <MemoryRouter initialEntries={[route]} useTransitions={false}>
        <Routes>
          <Route path={opts.path ?? route} element={ui} />
          <Route path="*" element={<div data-testid="elsewhere" />} />
        </Routes>
      </MemoryRouter>
    </AppProviders>,
  );
  return { ...result, queryClient };
};
