import { BrowserRouter } from "react-router";
import { AppProviders } from "./providers";
import { AppRoutes } from "./router";

export function App() {
  return (
    <AppProviders>
      {/* synchronous navigation: the login page moves to /tickets in the same render that starts the session */}
      <BrowserRouter useTransitions={false}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}
