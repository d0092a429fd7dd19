import { Suspense, lazy } from "react";
import { BrowserRouter } from "react-router";
import { BrandingHead } from "../components/ui/branding";
import { HealthBanner } from "./health/health-banner";
import { AppProviders } from "./providers";
import { AppRoutes } from "./router";
import { ContactDrawerSlot } from "../lib/contact-drawer-slot";
import type { ContactDrawerBlock } from "../lib/contact-drawer-slot";

// loaded when a contact drawer first shows it, not with the first screen (issue 15)
const LazyPrivacySection = lazy(() => import("../features/lgpd/components/contact-privacy-section").then((m) => ({ default: m.ContactPrivacySection })));
const ContactPrivacySection: ContactDrawerBlock = (props) => (
  <Suspense fallback={null}>
    <LazyPrivacySection {...props} />
  </Suspense>
);
import { DashboardSlot, QueueDialogSlot, UserDialogSlot } from "../lib/service-level-slots";

// agent status and distribution blocks (docs/adr/0032), loaded when their screen shows them
const LazyDistribution = lazy(() => import("../features/presence/components/queue-distribution-fields").then((m) => ({ default: m.QueueDistributionFields })));
const LazyCapacity = lazy(() => import("../features/presence/components/capacity-field").then((m) => ({ default: m.CapacityField })));
const LazyAgentsPanel = lazy(() => import("../features/presence/components/agents-panel").then((m) => ({ default: m.AgentsPanel })));
const QueueDistributionFields = (props: { queueId: number }) => (
  <Suspense fallback={null}>
    <LazyDistribution {...props} />
  </Suspense>
);
const CapacityField = (props: { userId: number }) => (
  <Suspense fallback={null}>
    <LazyCapacity {...props} />
  </Suspense>
);
const AgentsPanel = () => (
  <Suspense fallback={null}>
    <LazyAgentsPanel />
  </Suspense>
);

export function App() {
  return (
    <AppProviders>
      <BrandingHead />
      <HealthBanner />
      {/* synchronous navigation: the login page moves to /tickets in the same render that starts the session */}
      <BrowserRouter useTransitions={false}>
        {/* the contact drawer's LGPD block (admins): opt-out state, export, erasure */}
        <ContactDrawerSlot.Provider value={ContactPrivacySection}>
          {/* agent status and distribution (docs/adr/0032): queue dialog, user dialog, dashboard */}
          <QueueDialogSlot.Provider value={QueueDistributionFields}>
            <UserDialogSlot.Provider value={CapacityField}>
              <DashboardSlot.Provider value={AgentsPanel}>
                <AppRoutes />
              </DashboardSlot.Provider>
            </UserDialogSlot.Provider>
          </QueueDialogSlot.Provider>
        </ContactDrawerSlot.Provider>
      </BrowserRouter>
    </AppProviders>
  );
}
