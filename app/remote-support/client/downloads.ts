/**
 * The download panel's pure parts (issue 15): the visitor's system, guessed
 * from the browser, decides which build is offered first; sizes in French.
 * Issue 40: the same guess made by the server from the request's headers, for
 * the signed-out /soft-assist page (no JavaScript there).
 */
import type { DevicePlatform, DownloadView } from "#app/remote-support/device-protocol.ts";

/**
 * The visitor's system from `navigator.userAgentData.platform` (Chromium)
 * or the user agent string; null for phones, tablets and anything else,
 * where the app cannot run.
 */
export function detectPlatform(userAgent: string, platformHint?: string): DevicePlatform | null {
  const hint = (platformHint ?? "").toLowerCase();
  if (hint === "windows") return "windows";
  if (hint === "macos") return "macos";
  if (hint === "linux" || hint === "chrome os") return "linux";
  if (/android|iphone|ipad|ipod|mobile/i.test(userAgent)) return null;
  if (/windows/i.test(userAgent)) return "windows";
  if (/mac os x|macintosh/i.test(userAgent)) return "macos";
  if (/linux|x11|cros/i.test(userAgent)) return "linux";
  return null;
}

/**
 * The visitor's system from a request's headers (server side, issue 40): the `Sec-CH-UA-Platform` hint
 * (sent quoted, `"Windows"`) when present, else the User-Agent, read as `detectPlatform` reads the browser's
 * own values. Reads at most 512 characters of each.
 */
export function platformOfRequest(headers: Headers): DevicePlatform | null {
  const hint = headers.get("sec-ch-ua-platform")?.slice(0, 512).replace(/"/g, "").trim();
  return detectPlatform(headers.get("user-agent")?.slice(0, 512) ?? "", hint);
}

/**
 * The builds for `platform` (both Macs on macOS, Apple Silicon first) and the others, each in
 * `orderDownloads`' order; all are `others` when `platform` is null or has no build.
 */
export function splitDownloads(
  downloads: readonly DownloadView[],
  platform: DevicePlatform | null,
): { yours: DownloadView[]; others: DownloadView[] } {
  const ordered = orderDownloads(downloads, platform);
  return {
    yours: ordered.filter((download) => download.platform === platform),
    others: ordered.filter((download) => download.platform !== platform),
  };
}

/** The builds for `platform` first (Apple Silicon before Intel on a Mac), then the others in their order. */
export function orderDownloads(downloads: readonly DownloadView[], platform: DevicePlatform | null): DownloadView[] {
  const rank = (download: DownloadView) =>
    download.platform !== platform ? 2 : download.platform === "macos" && download.arch !== "arm64" ? 1 : 0;
  return downloads
    .map((download, index) => ({ download, index }))
    .sort((a, b) => rank(a.download) - rank(b.download) || a.index - b.index)
    .map(({ download }) => download);
}

const megabytes = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 });

/** `bytes` as the French would say it: "98,4 Mo" (1 Mo = 10⁶ octets, like the systems' file managers). */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000_000) return `${megabytes.format(Math.max(bytes, 1) / 1_000)} ko`;
  return `${megabytes.format(bytes / 1_000_000)} Mo`;
}
