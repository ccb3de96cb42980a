/**
 * The polite live line saying that the server connection was lost and is
 * coming back (issue 13 §4; WCAG 4.1.3: status changes announced without
 * moving focus). Always rendered, empty while all is well, so that screen
 * readers announce each change of its text.
 */
import { cn } from "#app/utils/cn.ts";
import { SERVER_LINK_TEXT, type ServerLink } from "#app/remote-support/client/server-connection.ts";

export function ServerLinkStatus({ link, className }: { link: ServerLink; className?: string }) {
  const text = SERVER_LINK_TEXT[link];
  return (
    <p
      role="status"
      className={cn(
        text ? "font-medium" : "sr-only",
        link === "restored" ? "text-emerald-300" : "text-amber-200",
        className,
      )}
    >
      {text}
    </p>
  );
}
