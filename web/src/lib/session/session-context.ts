import { createContext, useContext } from "react";
import type { SessionUser } from "@atende/shared/contracts/http/auth";
import type { Plan, PlanFlags } from "@atende/shared/domain/plans/plan";

export type SessionState =
  | { status: "loading" }
  | { status: "anonymous" }
  | { status: "error"; retry: () => void }
  | { status: "authenticated"; user: SessionUser };

export type Session = SessionState & {
  /** the company's plan (GET /companies/listPlan/{companyId}); undefined until loaded */
  plan: Plan | undefined;
  planFlags: PlanFlags;
  /** false while the plan is still loading (plan-gated UI waits for it instead of flickering) */
  planSettled: boolean;
};

export const SessionContext = createContext<Session | null>(null);

export const useSession = (): Session => {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside <SessionProvider>");
  return session;
};

/** The signed-in user; only inside private routes (the guard guarantees a session there). */
export const useSessionUser = (): SessionUser => {
  const session = useSession();
  if (session.status !== "authenticated") throw new Error("useSessionUser outside a private route");
  return session.user;
};

export const useIsAdmin = () => useSessionUser().profile === "admin";

/** A company setting value from the session (e.g. "campaignsEnabled"), or undefined. */
export const useCompanySetting = (key: string): string | undefined => useSessionUser().company.settings.find((s) => s.key === key)?.value;
