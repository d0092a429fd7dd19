import { Box, Button, MenuItem, Paper, Stack, TextField, Typography } from "@mui/material";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { API_BASE } from "../../../lib/api-client";
import { toast } from "../../../lib/toast";
import { useWhatsapps } from "../../../lib/pickers";
import { EXTERNAL_SEND_PATH, useExternalSend } from "../api/external-messages";

const NUMBER = /^\d{10,15}$/;

/** A template send (Cloud API connections, docs/external-api.md): Meta's components, or our `values` by variable. */
const TEMPLATE_EXAMPLE = `{
  "number": "5511999999999",
  "template": {
    "name": "pedido_enviado",
    "language": "pt_BR",
    "components": [{ "type": "body", "parameters": [{ "type": "text", "text": "Maria" }] }]
  }
}`;

function Code({ children }: { children: string }) {
  return (
    <Box component="pre" sx={{ p: 1.5, bgcolor: "action.hover", borderRadius: 1, overflowX: "auto", fontSize: 13, m: 0 }}>
      {children}
    </Box>
  );
}

/** One test form: a connection (its token), a number, a text and, for media, a file. */
function SendForm({ media }: { media: boolean }) {
  const { t } = useTranslation("messagesApi");
  const whatsapps = useWhatsapps();
  const send = useExternalSend();
  const [whatsappId, setWhatsappId] = useState<number | "">("");
  const [number, setNumber] = useState("");
  const [body, setBody] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [touched, setTouched] = useState(false);
  const prefix = media ? "media" : "text";
  const token = (whatsapps.data ?? []).find((w) => w.id === whatsappId)?.token ?? "";
  const numberError = touched && !NUMBER.test(number);
  const bodyError = touched && !media && !body.trim();
  const fileError = touched && media && !file;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!token || !NUMBER.test(number) || (!media && !body.trim()) || (media && !file)) return;
    send.mutate(
      { token, number, body, file: media ? file : null },
      {
        onSuccess: () => {
          toast.success(t("sent"));
          setBody("");
          setFile(null);
          setTouched(false);
        },
      },
    );
  };

  return (
    <Paper component="form" variant="outlined" sx={{ p: 2 }} onSubmit={submit} noValidate data-testid={`${prefix}-form`}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {media ? t("mediaTitle") : t("textTitle")}
      </Typography>
      <Stack spacing={2}>
        <TextField
          select
          label={t("connection")}
          value={whatsappId}
          onChange={(e) => setWhatsappId(Number(e.target.value))}
          error={touched && !token}
          helperText={touched && !token ? t("connectionRequired") : " "}
          slotProps={{ htmlInput: { "data-testid": `${prefix}-connection` } }}
        >
          {(whatsapps.data ?? []).map((w) => (
            <MenuItem key={w.id} value={w.id}>
              {w.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={t("number")}
          value={number}
          onChange={(e) => setNumber(e.target.value.replace(/\s/g, ""))}
          error={numberError}
          helperText={numberError ? t("numberInvalid") : t("numberHint")}
          slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": `${prefix}-number` } }}
        />
        <TextField
          label={media ? t("caption") : t("message")}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          multiline
          minRows={2}
          error={bodyError}
          helperText={bodyError ? t("messageRequired") : " "}
          slotProps={{ htmlInput: { "data-testid": `${prefix}-body` } }}
        />
        {media && (
          <Box>
            <Button variant="outlined" component="label">
              {file ? file.name : t("chooseFile")}
              <input hidden type="file" data-testid="media-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            </Button>
            {fileError && (
              <Typography color="error" variant="caption" sx={{ display: "block", mt: 0.5 }}>
                {t("fileRequired")}
              </Typography>
            )}
          </Box>
        )}
        <Box>
          <Button type="submit" variant="contained" disabled={send.isPending}>
            {t("send")}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}

/** /messages-api (plan flag useExternalApi): how to send through the external endpoint, and two forms to try it. */
export function MessagesApiPage() {
  const { t } = useTranslation("messagesApi");
  const url = `${window.location.origin}${API_BASE}${EXTERNAL_SEND_PATH}`;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1100 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t("title")}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2">
          {t("howTitle")}
        </Typography>
        <Typography sx={{ my: 1 }}>{t("howIntro")}</Typography>
        <Typography variant="subtitle2">{t("endpoint")}</Typography>
        <Code>{`POST ${url}`}</Code>
        <Typography variant="subtitle2" sx={{ mt: 1 }}>
          {t("headers")}
        </Typography>
        <Code>{`Authorization: Bearer <token>\nIdempotency-Key: <${t("optional")}>`}</Code>
        <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
          {t("tokenWhere")}
        </Typography>
        <Typography variant="subtitle2">{t("textExample")}</Typography>
        <Code>{`Content-Type: application/json\n\n{ "number": "5511999999999", "body": "${t("exampleBody")}" }`}</Code>
        <Typography variant="subtitle2" sx={{ mt: 1 }}>
          {t("mediaExample")}
        </Typography>
        <Code>{`Content-Type: multipart/form-data\n\nnumber=5511999999999\nbody=<${t("captionWord")}>\nmedias=<${t("fileWord")}>`}</Code>
        <Typography variant="subtitle2" sx={{ mt: 1 }}>
          {t("templateExample")}
        </Typography>
        <Code>{`Content-Type: application/json\n\n${TEMPLATE_EXAMPLE}`}</Code>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t("templateRule")}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t("numberRules")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("answer")}
        </Typography>
      </Paper>
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" } }}>
        <SendForm media={false} />
        <SendForm media />
      </Box>
    </Box>
  );
}
