import type { ComponentType } from "react";
import type { ChannelConnectionView } from "@atende/shared/contracts/http/whatsapps";
import type { ChannelProvider } from "@atende/shared/domain/channels/channel-providers";
import { telegramForm } from "./telegram-connection-fields";
import { webchatForm } from "./webchat-connection-fields";
import { instagramForm, messengerForm } from "./meta-connection-fields";

/** The values of a channel's own fields in the connection dialog (strings as typed; the API parses them). */
export type ChannelFormValues = Record<string, unknown>;
export type ChannelFormProps = { value: ChannelFormValues; onChange: (next: ChannelFormValues) => void; saved: ChannelConnectionView | null };

/**
 * One channel's part of the *Conexões* dialog (docs/adr/0088): the provider picker offers every entry of
 * CHANNEL_FORMS besides the two WhatsApp kinds; adding a channel to the page is adding its entry here.
 */
export type ChannelFormEntry = {
  provider: ChannelProvider;
  defaults: ChannelFormValues;
  /** the form's values from a saved connection's settings (secrets come masked and are sent back as they are) */
  fromView: (view: ChannelConnectionView) => ChannelFormValues;
  Fields: ComponentType<ChannelFormProps>;
  /** a new connection stays open once saved (its webhook URL or verify token are to be copied) */
  keepOpenAfterCreate?: boolean;
};

export const CHANNEL_FORMS: ChannelFormEntry[] = [telegramForm, messengerForm, instagramForm, webchatForm];

export const channelFormOf = (provider: string | null | undefined) => CHANNEL_FORMS.find((f) => f.provider === provider) ?? null;
