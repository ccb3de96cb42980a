/**
 * The desktop app's downloads offered on /soft-assist (issue 15, `GET /api/downloads`), moved out of
 * `device-protocol.ts` (which re-exports them) when issue 38 §4 brought that module past 400 lines. Types only.
 */
import type { DevicePlatform } from "./device-protocol.ts";

/**
 * One build of the app offered on /soft-assist (`GET /api/downloads`):
 * served by our server at `url` (`/telechargements/<fileName>`, cached for a
 * year: the file name carries the version). `bytes`: size of the file as
 * downloaded; `sha256`: hex digest of that file.
 */
export type DownloadView = {
  platform: DevicePlatform;
  /** "x64" or "arm64". */
  arch: string;
  /** "Windows (64 bits)", "macOS (Apple Silicon)"… */
  label: string;
  fileName: string;
  url: string;
  version: string;
  bytes: number;
  sha256: string;
};
/** Empty when the apps were not built (`npm run build:desktop`). */
export type DownloadsResponse = { downloads: DownloadView[] };
