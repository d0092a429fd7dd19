/**
 * Top-bar slot for the announcements popover (spec 1 "Main layout"). Empty until the announcements feature
 * replaces this body with its popover (GET /announcements/, priority colours).
 */
export function AnnouncementsButton() {
  return null;
}
