import AccessTimeIcon from "@mui/icons-material/AccessTime";
import DoneIcon from "@mui/icons-material/Done";
import DoneAllIcon from "@mui/icons-material/DoneAll";
import { useTranslation } from "react-i18next";

/** Ack of an own message (spec 1 section 4): 0 clock; 1-2 single tick; 3 double tick; 4-5 blue double tick. */
export const ackKind = (ack: number): "pending" | "sent" | "delivered" | "read" =>
  ack <= 0 ? "pending" : ack <= 2 ? "sent" : ack === 3 ? "delivered" : "read";

export function AckIcon({ ack }: { ack: number }) {
  const { t } = useTranslation("messages");
  const kind = ackKind(ack);
  const common = { fontSize: "inherit" as const, titleAccess: t(`ack.${kind}`), "data-testid": `ack-${kind}`, sx: { fontSize: 16, verticalAlign: "middle" } };
  if (kind === "pending") return <AccessTimeIcon {...common} />;
  if (kind === "sent") return <DoneIcon {...common} />;
  if (kind === "delivered") return <DoneAllIcon {...common} />;
  return <DoneAllIcon {...common} sx={{ ...common.sx, color: "#34b7f1" }} />;
}
