import { NotificationsPopover } from "../../features/inbox/tickets/components/notifications-popover";
import { WhisperAlerts } from "../../features/inbox/tickets/components/whisper-alerts";

/**
 * The notification bell of the top bar: the tickets feature's popover (tickets with unread customer messages,
 * sound at the saved volume, unread count in the tab title; it also keeps the inbox caches live).
 */
export function NotificationsButton() {
  return (
    <>
      <NotificationsPopover />
      {/* issue 34: a supervisor's whisper to this attendant (toast and chime) */}
      <WhisperAlerts />
    </>
  );
}
