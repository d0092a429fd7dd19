import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Step, StepLabel, Stepper, TextField, Typography } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import QRCode from "qrcode";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { InvoiceResponse, PaymentEventData, SubscriptionResponse } from "@atende/shared/contracts/http/invoices";
import { formatDate } from "@atende/shared/domain/format/dates";
import { useSession } from "../../../lib/session/session-context";
import { refreshSession } from "../../../lib/api-client";
import { useRealtime } from "../../../lib/realtime";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../lib/toast-error";
import { invalidateInvoices, useSubscribe } from "../api/invoices";
import { CHECKOUT_REDIRECT_MS } from "../checkout-rules";
import { formatMoney } from "../money";

const STEPS = ["data", "customize", "review"] as const;
type BillingData = { firstName: string; lastName: string; zipcode: string; city: string; state: string };

/**
 * Checkout wizard 'Falta pouco!': Dados (0), Personalizar (1, where it starts), Revisar (2). PAGAR asks for the Pix
 * charge and shows its QR and copy-paste code; the payment event (CONCLUIDA) shows the renewal, then home after 4 s.
 */
export function CheckoutDialog({ invoice, onClose }: { invoice: InvoiceResponse; onClose: () => void }) {
  const { t } = useTranslation("invoices");
  const session = useSession();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const subscribe = useSubscribe();
  const [step, setStep] = useState(1);
  const [data, setData] = useState<BillingData>({ firstName: "", lastName: "", zipcode: "", city: "", state: "" });
  const [pix, setPix] = useState<SubscriptionResponse | null>(null);
  const [qrImage, setQrImage] = useState<string | null>(null);
  const [renewedUntil, setRenewedUntil] = useState<string | null>(null);
  const plan = session.plan;

  useEffect(() => {
    if (!pix) return;
    let alive = true;
    void QRCode.toDataURL(pix.qrcode.qrcode, { margin: 1, width: 240 })
      .then((url) => alive && setQrImage(url))
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [pix]);

  useRealtime<PaymentEventData>("payment", (event) => {
    if (event.action !== "CONCLUIDA" || event.invoiceId !== invoice.id) return;
    setRenewedUntil(event.company.dueDate);
    void invalidateInvoices(qc);
    void refreshSession().catch(() => undefined);
  });

  useEffect(() => {
    if (!renewedUntil) return;
    const timer = setTimeout(() => {
      onClose();
      void navigate("/");
    }, CHECKOUT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [renewedUntil, navigate, onClose]);

  const pay = () =>
    subscribe.mutate(
      {
        ...data,
        invoiceId: invoice.id,
        plan: { users: plan?.users ?? 0, connections: plan?.connections ?? 0, price: invoice.value },
        price: invoice.value,
        users: plan?.users ?? 0,
        connections: plan?.connections ?? 0,
      },
      {
        onSuccess: (res) => {
          setPix(res);
          toast.success(t("subscribed"));
        },
        onError: toastError,
      },
    );

  const copy = async () => {
    if (!pix) return;
    try {
      await navigator.clipboard.writeText(pix.qrcode.qrcode);
      toast.success(t("pix.copied"));
    } catch {
      toast.error(t("pix.copyFailed"));
    }
  };

  const field = (name: keyof BillingData) => (
    <TextField key={name} size="small" label={t(`data.${name}`)} value={data[name]} onChange={(e) => setData({ ...data, [name]: e.target.value })} fullWidth />
  );

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="checkout-title">
      <DialogTitle id="checkout-title">{t("checkout.title")}</DialogTitle>
      <DialogContent>
        {renewedUntil ? (
          <Alert severity="success" data-testid="checkout-renewed">
            {t("pix.renewed", { date: formatDate(renewedUntil) })}
          </Alert>
        ) : pix ? (
          <Stack spacing={2} alignItems="center" data-testid="checkout-pix">
            <Typography>{t("pix.instructions", { value: formatMoney(Number(pix.valor.original)) })}</Typography>
            {qrImage && <Box component="img" src={qrImage} alt={t("pix.qrAlt")} sx={{ width: 240, height: 240 }} />}
            <TextField
              label={t("pix.code")}
              value={pix.qrcode.qrcode}
              fullWidth
              multiline
              slotProps={{ input: { readOnly: true }, htmlInput: { "data-testid": "pix-code" } }}
            />
            <Button variant="outlined" onClick={() => void copy()}>
              {t("pix.copy")}
            </Button>
            <Typography variant="body2" color="text.secondary">
              {t("pix.waiting")}
            </Typography>
          </Stack>
        ) : (
          <>
            <Stepper activeStep={step} alternativeLabel sx={{ mb: 2 }}>
              {STEPS.map((s) => (
                <Step key={s}>
                  <StepLabel>{t(`checkout.steps.${s}`)}</StepLabel>
                </Step>
              ))}
            </Stepper>
            {step === 0 && <Stack spacing={1.5}>{(["firstName", "lastName", "zipcode", "city", "state"] as const).map(field)}</Stack>}
            {step === 1 && (
              <Stack spacing={1} data-testid="checkout-plan">
                <Typography variant="h6">{plan?.name ?? invoice.detail}</Typography>
                <Typography>{t("plan.users", { count: plan?.users ?? 0 })}</Typography>
                <Typography>{t("plan.connections", { count: plan?.connections ?? 0 })}</Typography>
                <Typography>{t("plan.price", { value: formatMoney(invoice.value) })}</Typography>
              </Stack>
            )}
            {step === 2 && (
              <Stack spacing={1} data-testid="checkout-review">
                <Typography variant="h6">{t("review.title")}</Typography>
                <Typography>{t("review.invoice", { id: invoice.id, detail: invoice.detail })}</Typography>
                <Typography>{t("review.dueDate", { date: formatDate(invoice.dueDate) })}</Typography>
                <Typography>{t("review.total", { value: formatMoney(invoice.value) })}</Typography>
              </Stack>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t("checkout.close")}</Button>
        {!pix && !renewedUntil && (
          <>
            <Button disabled={step === 0} onClick={() => setStep(step - 1)}>
              {t("checkout.back")}
            </Button>
            {step < STEPS.length - 1 ? (
              <Button variant="contained" onClick={() => setStep(step + 1)}>
                {t("checkout.next")}
              </Button>
            ) : (
              <Button variant="contained" color="success" disabled={subscribe.isPending} onClick={pay}>
                {t("pay")}
              </Button>
            )}
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
