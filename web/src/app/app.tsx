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

export function App() {
  return (
    <AppProviders>
      <BrandingHead />
      <HealthBanner />
      {/* synchronous navigation: the login page moves to /tickets in the same render that starts the session */}
      <BrowserRouter useTransitions={false}>
        {/* the contact drawer's LGPD block (admins): opt-out state, export, erasure */}
        <ContactDrawerSlot.Provider value={ContactPrivacySection}>
          <AppRoutes />
        </ContactDrawerSlot.Provider>
      </BrowserRouter>
    </AppProviders>
  );
}
