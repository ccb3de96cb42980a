/** Issue 15: the download panel offers the visitor's own system first. */
import { describe, expect, it } from "vitest";
import type { DownloadView } from "#app/remote-support/device-protocol.ts";
import { detectPlatform, formatBytes, orderDownloads, platformOfRequest, splitDownloads } from "./downloads.ts";

const build = (platform: DownloadView["platform"], arch: string): DownloadView => ({
  platform,
  arch,
  label: `${platform} ${arch}`,
  fileName: `app-${platform}-${arch}`,
  url: `/telechargements/app-${platform}-${arch}`,
  version: "1.0.0",
  bytes: 1,
  sha256: "0".repeat(64),
});
const all = [build("linux", "x64"), build("windows", "x64"), build("macos", "arm64"), build("macos", "x64")];

describe("detectPlatform", () => {
  it("reads the client hint first, then the user agent", () => {
    expect(detectPlatform("Mozilla/5.0 (X11; Linux x86_64)", "Windows")).toBe("windows");
    expect(detectPlatform("Mozilla/5.0 (Windows NT 10.0; Win64; x64)")).toBe("windows");
    expect(detectPlatform("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)")).toBe("macos");
    expect(detectPlatform("Mozilla/5.0 (X11; Linux x86_64)")).toBe("linux");
  });

  it("offers nothing first on a phone or a tablet", () => {
    expect(detectPlatform("Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile")).toBeNull();
    expect(detectPlatform("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)")).toBeNull();
  });
});

describe("platformOfRequest (issue 40: the signed-out page, rendered by the server)", () => {
  const windows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0";
  it("reads the quoted client hint first, then the User-Agent", () => {
    expect(platformOfRequest(new Headers({ "User-Agent": windows }))).toBe("windows");
    expect(platformOfRequest(new Headers({ "User-Agent": windows, "Sec-CH-UA-Platform": '"macOS"' }))).toBe("macos");
    expect(platformOfRequest(new Headers({ "User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)" }))).toBe(
      "macos",
    );
  });

  it("offers nothing first to a phone, a script or a request without headers", () => {
    const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile";
    expect(platformOfRequest(new Headers({ "User-Agent": android, "Sec-CH-UA-Platform": '"Android"' }))).toBeNull();
    expect(platformOfRequest(new Headers({ "User-Agent": "curl/8.5.0" }))).toBeNull();
    expect(platformOfRequest(new Headers())).toBeNull();
  });
});

describe("splitDownloads", () => {
  it("gives the visitor's builds (both Macs, Apple Silicon first) and the others in order", () => {
    const names = ({ yours, others }: { yours: DownloadView[]; others: DownloadView[] }) => ({
      yours: yours.map((d) => d.fileName),
      others: others.map((d) => d.fileName),
    });
    expect(names(splitDownloads([...all].reverse(), "macos"))).toEqual({
      yours: ["app-macos-arm64", "app-macos-x64"],
      others: ["app-windows-x64", "app-linux-x64"],
    });
    expect(names(splitDownloads(all, "windows")).yours).toEqual(["app-windows-x64"]);
    expect(names(splitDownloads(all, null))).toEqual({ yours: [], others: all.map((d) => d.fileName) });
  });
});

describe("orderDownloads", () => {
  it("puts the visitor's system first and keeps the others in order", () => {
    expect(orderDownloads(all, "windows").map((d) => d.fileName)).toEqual([
      "app-windows-x64",
      "app-linux-x64",
      "app-macos-arm64",
      "app-macos-x64",
    ]);
    expect(orderDownloads(all, "macos").map((d) => d.fileName)[0]).toBe("app-macos-arm64");
    expect(orderDownloads(all, null).map((d) => d.fileName)).toEqual(all.map((d) => d.fileName));
  });
});

describe("formatBytes", () => {
  it("writes sizes the French way", () => {
    expect(formatBytes(98_400_000).replace(/\s/gu, " ")).toBe("98,4 Mo");
    expect(formatBytes(1_250).replace(/\s/gu, " ")).toBe("1,3 ko");
  });
});
