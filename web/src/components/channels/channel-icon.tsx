import ChatIcon from "@mui/icons-material/Chat";
import InstagramIcon from "@mui/icons-material/Instagram";
import TelegramIcon from "@mui/icons-material/Telegram";
import VerifiedIcon from "@mui/icons-material/Verified";
import WhatsAppIcon from "@mui/icons-material/WhatsApp";
import { SvgIcon, type SvgIconProps } from "@mui/material";
import { useTranslation } from "react-i18next";
import type { ChannelName } from "@atende/shared/domain/channels/channel-providers";

/** Messenger's bubble with the lightning bolt (MUI has no Messenger icon). */
function MessengerIcon(props: SvgIconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M12 2C6.36 2 2 6.13 2 11.7c0 2.91 1.19 5.44 3.14 7.17.16.14.26.35.27.57l.05 1.78a.8.8 0 0 0 1.12.71l1.99-.88a.8.8 0 0 1 .53-.04c.91.25 1.88.39 2.9.39 5.64 0 10-4.13 10-9.7S17.64 2 12 2zm6 7.46-2.94 4.67a1.5 1.5 0 0 1-2.17.4l-2.34-1.75a.6.6 0 0 0-.72 0l-3.16 2.4c-.42.32-.97-.18-.69-.63l2.94-4.67a1.5 1.5 0 0 1 2.17-.4l2.34 1.75a.6.6 0 0 0 .72 0l3.16-2.4c.42-.32.97.18.69.63z" />
    </SvgIcon>
  );
}

const ICONS: Record<ChannelName, { Icon: (p: SvgIconProps) => React.ReactElement; color: string }> = {
  whatsapp: { Icon: (p) => <WhatsAppIcon {...p} />, color: "#25D366" },
  cloudapi: { Icon: (p) => <VerifiedIcon {...p} />, color: "#128C7E" },
  telegram: { Icon: (p) => <TelegramIcon {...p} />, color: "#229ED9" },
  messenger: { Icon: (p) => <MessengerIcon {...p} />, color: "#0084FF" },
  instagram: { Icon: (p) => <InstagramIcon {...p} />, color: "#E4405F" },
  webchat: { Icon: (p) => <ChatIcon {...p} />, color: "#5C6BC0" },
};

/**
 * The icon of a ticket's or connection's channel (docs/adr/0088): WhatsApp by QR code, the official Cloud API,
 * Telegram, Messenger, Instagram or the website chat, in the channel's colour, named for screen readers.
 */
export function ChannelIcon({ channel, ...props }: { channel: ChannelName } & Omit<SvgIconProps, "children">) {
  const { t } = useTranslation("channels");
  const { Icon, color } = ICONS[channel] ?? ICONS.whatsapp;
  return <Icon titleAccess={t(`name.${channel}`)} data-testid="channel-icon" data-channel={channel} htmlColor={color} {...props} />;
}
