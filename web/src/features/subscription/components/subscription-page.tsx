import { Box, Button, Card, CardActions, CardContent, CircularProgress, Typography } from "@mui/material";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useSessionUser } from "../../../lib/session/session-context";
import { useCompanyRecord } from "../../../lib/pickers";
import { trialDaysLeft } from "../trial";

/** /subscription 'Assinatura': trial days left, the billing email and a subscribe button (to the invoices). */
export function SubscriptionPage() {
  const { t } = useTranslation("subscription");
  const user = useSessionUser();
  const navigate = useNavigate();
  const company = useCompanyRecord(user.companyId);
  const days = trialDaysLeft(company.data?.trialExpiration);

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t("title")}
      </Typography>
      {company.isLoading ? (
        <CircularProgress size={24} />
      ) : (
        <Card variant="outlined" sx={{ maxWidth: 480 }}>
          <CardContent>
            <Typography data-testid="trial-days">{days === null ? t("noTrial") : days > 0 ? t("trialDaysLeft", { count: days }) : t("trialOver")}</Typography>
            <Typography sx={{ mt: 1 }} data-testid="billing-email">
              {t("billingEmail", { email: company.data?.email ?? user.email })}
            </Typography>
          </CardContent>
          <CardActions>
            <Button variant="contained" onClick={() => void navigate("/financeiro")} disabled={user.profile !== "admin"}>
              {t("subscribe")}
            </Button>
          </CardActions>
        </Card>
      )}
    </Box>
  );
}
