import { type ReactNode, startTransition, useEffect, useState } from "react";

/** Set once the first screen is up: what mounts later renders at once. */
let firstScreenShown = false;

/**
 * Renders its children a moment after the screen around it has been committed, as a low-priority update (issue 15,
 * ADR 0047): parts nobody reads in the first second (the top bar's status, bell, announcements, chats, language and
 * profile buttons) no longer add to the render that shows the first ticket cards. After the first screen, a mount
 * renders its children at once.
 */
export function AfterFirstScreen({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(firstScreenShown);
  useEffect(() => {
    if (shown) return;
    const timer = setTimeout(() => {
      firstScreenShown = true;
      startTransition(() => setShown(true));
    }, 0);
    return () => clearTimeout(timer);
  }, [shown]);
  return shown ? children : null;
}
