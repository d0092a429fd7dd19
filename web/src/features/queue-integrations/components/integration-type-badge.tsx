import AccountTreeIcon from "@mui/icons-material/AccountTree";
import ChatIcon from "@mui/icons-material/Chat";
import SmartToyIcon from "@mui/icons-material/SmartToy";
import WebhookIcon from "@mui/icons-material/Webhook";
import { Avatar, Tooltip } from "@mui/material";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { IntegrationType } from "@atende/shared/domain/queue-integrations/queue-integration";

/** The list's "type logo": an icon in the product's colour (no external images). */
const LOOK: Record<IntegrationType, { icon: ReactNode; color: string }> = {
  dialogflow: { icon: <ChatIcon fontSize="small" />, color: "#FF9800" },
  n8n: { icon: <AccountTreeIcon fontSize="small" />, color: "#EA4B71" },
  webhook: { icon: <WebhookIcon fontSize="small" />, color: "#455A64" },
  typebot: { icon: <SmartToyIcon fontSize="small" />, color: "#0042DA" },
};

export function IntegrationTypeBadge({ type }: { type: IntegrationType }) {
  const { t } = useTranslation("queueIntegrations");
  const label = t(`types.${type}`);
  return (
    <Tooltip title={label}>
      <Avatar role="img" aria-label={label} sx={{ width: 32, height: 32, bgcolor: LOOK[type].color }}>
        {LOOK[type].icon}
      </Avatar>
    </Tooltip>
  );
}
