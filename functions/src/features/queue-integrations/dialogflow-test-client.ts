import { randomUUID } from "node:crypto";
import type { DialogflowLanguage } from "@atende/shared/domain/queue-integrations/queue-integration";
import {
  DialogflowError,
  dialogflowAnswerText,
  dialogflowEndsConversation,
  type DialogflowRest,
  type DialogflowServiceAccount,
} from "../../platform/dialogflow/dialogflow-rest.adapter";
import { AppError } from "../../platform/errors";

/** The test phrase of the integration dialog's test button. */
export const DIALOGFLOW_TEST_PHRASE = "teste";

export type DialogflowTestAnswer = { answer: string[]; intent: string | null; endInteraction: boolean };

/** Port: opens a DialogFlow session with the given service account, sends the test phrase, answers what the agent said. */
export type DialogflowTester = {
  /** Throws AppError ERR_DIALOGFLOW_INVALID_CREDENTIALS / _REJECTED / _UNREACHABLE. */
  testSession(input: { credentials: DialogflowServiceAccount; projectName: string; language: DialogflowLanguage }): Promise<DialogflowTestAnswer>;
};

/** The REST adapter (the same one the bot engine uses: Google's addresses, or the local stand-in's, from config). */
export const createDialogflowTester = (rest: DialogflowRest): DialogflowTester => ({
  async testSession({ credentials, projectName, language }) {
    try {
      const r = await rest.detectIntent({ credentials, projectName, sessionId: randomUUID(), text: DIALOGFLOW_TEST_PHRASE, languageCode: language });
      return { answer: dialogflowAnswerText(r), intent: r.intent?.displayName ?? null, endInteraction: dialogflowEndsConversation(r) };
    } catch (e) {
      if (!(e instanceof DialogflowError)) throw e;
      if (e.kind === "credentials") throw new AppError("ERR_DIALOGFLOW_INVALID_CREDENTIALS", { reason: "private_key" });
      if (e.kind === "unreachable") throw new AppError("ERR_DIALOGFLOW_UNREACHABLE");
      throw new AppError("ERR_DIALOGFLOW_REJECTED", { step: e.step });
    }
  },
});
