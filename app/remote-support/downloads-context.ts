/**
 * Issue 40: the desktop app's builds as the server offers them (`server/downloads.ts`, the same list as
 * `GET /api/downloads`), handed to the /soft-assist loader through the router context, so the signed-out
 * page's « Obtenir de l'aide » renders real download links with no JavaScript and no second request.
 */
import type { DownloadView } from "#app/remote-support/download-protocol.ts";
import { sharedContext } from "#app/utils/server-context.ts";

/** `list()`: the builds whose files are there (empty when none was built); may reject when the folder cannot be read. */
export type DownloadsSource = { list(): Promise<DownloadView[]> };

export const downloadsContext = sharedContext<DownloadsSource>("desktop-downloads");
