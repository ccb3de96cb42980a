/**
 * Issue 38 §2 « Files both ways, with consent »: how `app.ts` wires the file transfers (`transfers.ts`) to the
 * app's link and its interface, in two calls (so the app's module stays short): `startFiles` with this system's
 * Downloads folder (`downloads.ts`), file chooser and file manager (`chooser.ts`) — none in the terminal, where the
 * customer types the path after F — and `fileActions`, what the views' buttons and keys call.
 */
import type { ViewActions, InterfaceKind } from "../views/view.ts";
import { chooseFile, openFolder } from "./chooser.ts";
import { downloadsFolder, systemDownloadsContext } from "./downloads.ts";
import { type FileLink, FileTransfers } from "./transfers.ts";

export type { FileTransfers };

/**
 * Starts the file transfers of `link` for the interface `kind`. `platform`: this system (tests give another);
 * `onChange`: redraw; `notice`: a French note for the customer.
 */
export function startFiles(
  link: FileLink,
  kind: InterfaceKind,
  options: { platform?: NodeJS.Platform; onChange(): void; notice(message: string): void },
): FileTransfers {
  const platform = options.platform ?? process.platform;
  const files = new FileTransfers(link, {
    folder: () => downloadsFolder(systemDownloadsContext(platform)),
    choose: kind === "terminal" ? null : () => chooseFile(platform),
    openFolder: (folder) => openFolder(folder, platform),
    onChange: options.onChange,
    notice: options.notice,
  });
  files.start();
  return files;
}

/** The views' file actions (`ViewActions`) for `files`. */
export function fileActions(
  files: FileTransfers,
): Required<Pick<ViewActions, "answerFile" | "sendFile" | "cancelFile" | "openFolder">> {
  return {
    answerFile: (accept) => files.answer(accept),
    sendFile: (path) => void files.send(path),
    cancelFile: (id) => files.cancel(id),
    openFolder: () => files.openFolder(),
  };
}
