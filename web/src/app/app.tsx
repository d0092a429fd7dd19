import { BrowserRouter } from "react-router";
import { BrandingHead } from "../components/ui/branding";
import { HealthBanner } from "./health/health-banner";
import { AppProviders } from "./providers";
import { AppRoutes } from "./router";

export function App() {
  return (
    <AppProviders>
      <BrandingHead />
      <HealthBanner />
      {/* synchronous navigation: the login page moves to /tickets in the same render that starts the session */}
      <BrowserRouter useTransitions={false}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
