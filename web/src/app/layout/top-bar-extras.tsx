import { LanguageSelector } from "../../components/ui/language-selector";
import { AgentStatusSwitch } from "../../features/presence/components/agent-status-switch";
import { AnnouncementsButton } from "./announcements-button";
import { InternalChatsButton } from "./internal-chats-button";
import { NotificationsButton } from "./notifications-button";
import { ProfileMenu } from "./profile-menu";
import { VolumeControl } from "./volume-control";

/**
 * The top bar's parts that are not needed for the first screen, in a chunk of their own loaded just after it
 * (issue 15, ADR 0047): the agent's status switch, the volume slider, and the bell, announcements, internal chats, language and profile
 * buttons (with the profile dialog's two-factor section and its QR code library).
 */
export function TopBarStatus() {
  return <AgentStatusSwitch />;
}

export function TopBarVolume() {
  return <VolumeControl />;
}

export function TopBarButtons({ onLogout }: { onLogout: () => void }) {
  return (
    <>
      <NotificationsButton />
      <AnnouncementsButton />
      <InternalChatsButton />
      <LanguageSelector />
      <ProfileMenu onLogout={onLogout} />
    </>
  );
}
