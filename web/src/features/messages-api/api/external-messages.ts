import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** The public endpoint, as an integrator calls it (the page documents and tests it). */
export const EXTERNAL_SEND_PATH = "/messages/send";

export type ExternalSend = { token: string; number: string; body: string; file?: File | null };

/** POST /api/messages/send with the connection's token (not the user's session). */
export const useExternalSend = () =>
  useMutation({
    mutationFn: ({ token, number, body, file }: ExternalSend) => {
      if (!file) return api.post<{ mensagem: string }>(EXTERNAL_SEND_PATH, { number, body }, { bearer: token });
      const form = new FormData();
      form.append("number", number);
      form.append("body", body);
      form.append("medias", file);
      return api.post<{ mensagem: string }>(EXTERNAL_SEND_PATH, form, { bearer: token });
    },
  });
