import { Box, Paper, Tab, Tabs, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useCompanySetting, useSessionUser } from "../../lib/session/session-context";
import { CompaniesTab, CompanyRegisterTab } from "../../features/companies/components/companies-tab";
import { UserDialog } from "../../features/users/components/user-dialog";
import { HelpsTab } from "../../features/helps/components/helps-tab";
import { LogosTab } from "../../features/logos/components/logos-tab";
import { PlansTab } from "../../features/plans/components/plans-tab";
import { CompanyHoursTab } from "../../features/settings/components/company-hours-tab";
import { OptionsTab } from "../../features/settings/components/options-tab";
import { HolidaysTab } from "../../features/sla/components/holidays-tab";
import { LgpdSettingsSection } from "../../features/lgpd/components/lgpd-settings-section";
import { AttendanceSettings } from "../../features/presence/components/attendance-settings";
import { SessionHostsTab } from "../../features/session-hosts/components/session-hosts-tab";
import { CopilotSettingsTab } from "../../features/copilot/components/copilot-settings-tab";

type TabKey = "options" | "privacy" | "ai" | "attendance" | "hours" | "holidays" | "logo" | "companies" | "register" | "plans" | "helps" | "sessionHosts";

/** /settings: 'Opções', 'Horários' (schedule type 'company'), and the operator's tabs. */
/** The company form's "new user" button opens the users feature's dialog. */
const NewCompanyUserDialog = ({ companyId, onClose }: { companyId: number; onClose: () => void }) => <UserDialog user={null} companyId={companyId} onClose={onClose} />;

export function SettingsPage() {
  const { t } = useTranslation("settings");
  const user = useSessionUser();
  const scheduleType = useCompanySetting("scheduleType");
  const tabs: TabKey[] = ["options", "privacy"];
  if (user.profile === "admin") tabs.push("ai", "attendance");
  if (scheduleType === "company") tabs.push("hours");
  tabs.push("holidays");
  if (user.super) tabs.push("logo", "companies", "register", "plans", "helps", "sessionHosts");
  const [current, setCurrent] = useState<TabKey>("options");
  const tab = tabs.includes(current) ? current : "options";

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {t("title")}
      </Typography>
      <Paper variant="outlined">
        <Tabs value={tab} onChange={(_e, v: TabKey) => setCurrent(v)} variant="scrollable" scrollButtons="auto">
          {tabs.map((k) => (
            <Tab key={k} value={k} label={t(`tabs.${k}`)} />
          ))}
        </Tabs>
        <Box sx={{ p: 2 }}>
          {tab === "options" && <OptionsTab isSuper={user.super} />}
          {tab === "privacy" && <LgpdSettingsSection />}
          {tab === "ai" && <CopilotSettingsTab />}
          {tab === "attendance" && <AttendanceSettings />}
          {tab === "hours" && <CompanyHoursTab companyId={user.companyId} />}
          {tab === "holidays" && <HolidaysTab />}
          {tab === "logo" && <LogosTab />}
          {tab === "companies" && <CompaniesTab UserDialog={NewCompanyUserDialog} />}
          {tab === "register" && <CompanyRegisterTab />}
          {tab === "plans" && <PlansTab />}
          {tab === "helps" && <HelpsTab />}
          {tab === "sessionHosts" && <SessionHostsTab />}
        </Box>
      </Paper>
    </Box>
  );
}
