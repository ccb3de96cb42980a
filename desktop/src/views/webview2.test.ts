import { describe, expect, it } from "vitest";
import { WEBVIEW2_CLIENT, WEBVIEW2_MISSING, webview2Version } from "./webview2.ts";

/** A registry holding `values` (root + "\\" + key → pv), reading nothing else. */
function registry(values: Record<string, string>) {
  const asked: string[] = [];
  const read = (root: "HKLM" | "HKCU", key: string) => {
    asked.push(`${root}\\${key}`);
    return values[`${root}\\${key}`] ?? null;
  };
  return { read, asked };
}

describe("WebView2 detection (issue 36 §3)", () => {
  it("finds the per-machine runtime in the 64-bit registry's WOW6432Node view", () => {
    const { read } = registry({
      [`HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\EdgeUpdate\\Clients\\${WEBVIEW2_CLIENT}`]: "131.0.2903.70",
    });
    expect(webview2Version(read, {})).toBe("131.0.2903.70");
  });

  it("finds a per-user runtime when there is no per-machine one", () => {
    const { read, asked } = registry({
      [`HKCU\\Software\\Microsoft\\EdgeUpdate\\Clients\\${WEBVIEW2_CLIENT}`]: "120.0.1.0",
    });
    expect(webview2Version(read, {})).toBe("120.0.1.0");
    expect(asked).toHaveLength(3);
  });

  it("says none for an empty registry (Wine) and for the 0.0.0.0 an uninstall leaves", () => {
    expect(webview2Version(registry({}).read, {})).toBeNull();
    const { read } = registry({
      [`HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\EdgeUpdate\\Clients\\${WEBVIEW2_CLIENT}`]: "0.0.0.0",
      [`HKCU\\Software\\Microsoft\\EdgeUpdate\\Clients\\${WEBVIEW2_CLIENT}`]: " ",
    });
    expect(webview2Version(read, {})).toBeNull();
  });

  it("trusts a fixed-version runtime named by WEBVIEW2_BROWSER_EXECUTABLE_FOLDER", () => {
    expect(webview2Version(registry({}).read, { WEBVIEW2_BROWSER_EXECUTABLE_FOLDER: "C:\\wv2" })).toBe("fixed");
  });

  it("tells the customer in French what is missing and what to do", () => {
    expect(WEBVIEW2_MISSING).toMatch(/^WebView2 n'est pas installé : /u);
    expect(WEBVIEW2_MISSING).toContain("Microsoft Edge WebView2 Runtime");
  });
});
