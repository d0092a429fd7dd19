import { BrowserRouter } from "react-router";
import { BrandingHead } from "../components/ui/branding";
import { HealthBanner } from "./health/health-banner";
import { AppProviders } from "./providers";
import { AppRoutes } from "./router";
import { ContactDrawerSlot } from "../lib/contact-drawer-slot";
import { ContactPrivacySection } from "../features/lgpd/components/contact-privacy-section";
import { DashboardSlot, QueueDialogSlot, UserDialogSlot } from "../lib/service-level-slots";
import { QueueDistributionFields } from "../features/presence/components/queue-distribution-fields";
import { CapacityField } from "../features/presence/components/capacity-field";
import { AgentsPanel } from "../features/presence/components/agents-panel";

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
