/**
 * Issue 27: « the system » a waiting customer uses, as technicians read it in
 * the queue (`sessions.customer_system`, migration 0018, ≤ 40 characters).
 * One normalised name per system (`CUSTOMER_SYSTEMS`, a zod enum for any
 * input that carries one): from the desktop app's platform when it starts or
 * pairs a session, and for a site session from the browser that opened it
 * (the `Sec-CH-UA-Platform` client hint when sent, else the User-Agent).
 * Pure: no server or browser API.
 */
import { z } from "zod";

export const CUSTOMER_SYSTEMS = ["Windows", "macOS", "Linux", "Android", "iOS", "ChromeOS"] as const;
export type CustomerSystem = (typeof CUSTOMER_SYSTEMS)[number];
/** A normalised system name, validated. */
export const CustomerSystemName = z.enum(CUSTOMER_SYSTEMS);

const PLATFORMS: Record<string, CustomerSystem> = { windows: "Windows", macos: "macOS", linux: "Linux" };

/** The desktop app's platform (`DEVICE_PLATFORMS`: "linux", "windows", "macos") → its name; null for any other. */
export function systemOfPlatform(platform: string): CustomerSystem | null {
  return Object.hasOwn(PLATFORMS, platform) ? PLATFORMS[platform]! : null;
}

/** `Sec-CH-UA-Platform` values (quoted, as Chromium sends them) → a name; unknown ones give null. */
const HINTS: Record<string, CustomerSystem> = {
  windows: "Windows",
  macos: "macOS",
  linux: "Linux",
  android: "Android",
  ios: "iOS",
  "chrome os": "ChromeOS",
  chromeos: "ChromeOS",
};

/** Order matters: Android says "Linux", iPadOS and iOS say "like Mac OS X", ChromeOS says "X11; CrOS". */
const AGENTS: [RegExp, CustomerSystem][] = [
  [/Android/i, "Android"],
  [/iPhone|iPad|iPod/i, "iOS"],
  [/CrOS/, "ChromeOS"],
  [/Windows/i, "Windows"],
  [/Macintosh|Mac OS X/i, "macOS"],
  [/Linux|X11/i, "Linux"],
];

/**
 * The browser's system from its headers: the platform hint first (Chromium browsers send it on every HTTPS or
 * localhost request), else the User-Agent. Null when neither tells (a script, an unknown system). Reads at most
 * 512 characters of each.
 */
export function systemOfBrowser(headers: { platformHint?: string; userAgent?: string }): CustomerSystem | null {
  const hint = headers.platformHint?.slice(0, 512).replace(/"/g, "").trim().toLowerCase();
  if (hint && Object.hasOwn(HINTS, hint)) return HINTS[hint]!;
  const agent = headers.userAgent?.slice(0, 512) ?? "";
  return AGENTS.find(([pattern]) => pattern.test(agent))?.[1] ?? null;
}
