import { AnnouncementsPopover } from "../../features/announcements/components/announcements-popover";

/** Top-bar slot for the announcements popover (spec 1 "Main layout"): the announcements feature's popover. */
export function AnnouncementsButton() {
  return <AnnouncementsPopover />;
}
