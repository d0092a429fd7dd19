import { Box, Button, Chip, MenuItem, Paper, Stack, TextField, Typography } from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FLOW_TEST_CHANNELS, type FlowOutMessage, type FlowTestResponse, type FlowTestStep } from "@atende/shared/contracts/http/flows";
import type { FlowInput } from "@atende/shared/domain/flows/flow";
import { errorMessage } from "../../../lib/toast-error";
import { useTestFlow } from "../api/flows";

const outText = (m: FlowOutMessage): string => {
  if (m.kind === "text") return m.body;
  if (m.kind === "buttons") return `${m.body}\n${m.buttons.map((b) => `[${b.title}]`).join(" ")}`;
  if (m.kind === "list") return `${m.body}\n${m.rows.map((r) => `• ${r.title}`).join("\n")}`;
  return `${m.fileName} ${m.caption}`.trim();
};

/** The variables at a step: vars.* and the contact's fields the flow may have filled. */
const variablesOf = (s: FlowTestStep): [string, string][] => [
  ...Object.entries(s.vars).map(([k, v]): [string, string] => [`vars.${k}`, v]),
  ...(["name", "email"] as const).filter((k) => s.contact[k]).map((k): [string, string] => [`contact.${k}`, s.contact[k]]),
  ...Object.entries(s.contact.extra).map(([k, v]): [string, string] => [`contact.extra.${k}`, v]),
];

/**
 * The test panel: a chat with the flow through POST /api/flows/{id}/test. The engine is stateless here, so each
 * message replays the whole conversation on the canvas as it is now (unsaved changes included).
 */
export function TestPanel({ flowId, flow, onStep }: { flowId: number; flow: () => FlowInput; onStep?: (nodeId: string | null) => void }) {
  const { t } = useTranslation("flows");
  const test = useTestFlow();
  const [messages, setMessages] = useState<string[]>([]);
  const [draft, setDraft] = useState("");
  const [channel, setChannel] = useState<(typeof FLOW_TEST_CHANNELS)[number]>("qr");
  const [result, setResult] = useState<FlowTestResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = (next: string[]) =>
    test.mutate(
      { id: flowId, body: { flow: flow() as never, messages: next, channel } },
      {
        onSuccess: (r) => {
          setMessages(next);
          setResult(r);
          setError(null);
          onStep?.(r.nodeId);
        },
        onError: (e) => setError(errorMessage(e)),
      },
    );
  const send = () => {
    if (!draft.trim()) return;
    run([...messages, draft.trim()]);
    setDraft("");
  };

  return (
    <Box data-testid="flow-test-panel" sx={{ p: 2, display: "flex", flexDirection: "column", gap: 1, height: "100%" }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <TextField select size="small" label={t("test.channel")} value={channel} onChange={(e) => setChannel(e.target.value as typeof channel)}>
          {FLOW_TEST_CHANNELS.map((c) => (
            <MenuItem key={c} value={c}>
              {t(`test.channels.${c}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button onClick={() => run([])} disabled={test.isPending} data-testid="flow-test-start">
          {result ? t("test.restart") : t("test.start")}
        </Button>
      </Stack>
      {error && (
        <Typography color="error" variant="body2" data-testid="flow-test-error">
          {error}
        </Typography>
      )}
      <Box sx={{ flex: 1, overflowY: "auto", display: "flex", flexDirection: "column", gap: 1 }} data-testid="flow-test-log">
        {result?.steps.map((s, i) => (
          <Box key={i}>
            {s.in !== undefined && (
              <Paper sx={{ p: 1, ml: 6, bgcolor: "primary.light" }} data-testid="flow-test-in">
                <Typography variant="body2">{s.in}</Typography>
              </Paper>
            )}
            {s.out.map((m, j) => (
              <Paper key={j} sx={{ p: 1, mr: 6, mt: 0.5, whiteSpace: "pre-wrap" }} data-testid="flow-test-out">
                <Typography variant="body2">{outText(m)}</Typography>
              </Paper>
            ))}
            <Stack direction="row" spacing={0.5} sx={{ flexWrap: "wrap", mt: 0.5 }}>
              <Chip size="small" variant="outlined" label={`${t(`type.${s.nodeType}`, { defaultValue: s.nodeType })} · ${s.nodeId}${s.handle ? ` → ${s.handle}` : ""}`} />
              {variablesOf(s).map(([k, v]) => (
                <Chip key={k} size="small" label={`${k} = ${v}`} data-testid="flow-test-var" />
              ))}
              {s.note && <Chip size="small" color="warning" label={s.note} />}
            </Stack>
          </Box>
        ))}
        {result && (
          <Typography variant="caption" data-testid="flow-test-status">
            {t(`test.status.${result.status}`)}
            {result.transfer?.queueId ? ` (${t("field.queueId")} ${result.transfer.queueId})` : ""}
          </Typography>
        )}
      </Box>
      <Stack direction="row" spacing={1} component="form" onSubmit={(e) => (e.preventDefault(), send())}>
        <TextField size="small" fullWidth placeholder={t("test.placeholder")} value={draft} onChange={(e) => setDraft(e.target.value)} disabled={!result || result.status !== "waiting"} slotProps={{ htmlInput: { "data-testid": "flow-test-input" } }} />
        <Button type="submit" variant="contained" disabled={!result || result.status !== "waiting" || test.isPending} data-testid="flow-test-send">
          {t("test.send")}
        </Button>
      </Stack>
    </Box>
  );
}
