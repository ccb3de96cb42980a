import { describe, expect, it } from "vitest";
import { helpText, normalizeServerUrl, parseCli } from "./cli.ts";

describe("command line", () => {
  it("takes --server and --code, normalizing both", () => {
    expect(parseCli(["--server", "https://atelier.example/", "--code", "acde 3479"], undefined)).toEqual({
      kind: "run",
      server: "https://atelier.example",
      code: "ACDE3479",
      interface: null,
    });
    expect(parseCli(["-c", "ACDE-3479"], "https://built.example")).toEqual({
      kind: "run",
      server: "https://built.example",
      code: "ACDE3479",
      interface: null,
    });
  });

  it("asks for the code when --code is absent", () => {
    expect(parseCli([], "https://built.example")).toEqual({
      kind: "run",
      server: "https://built.example",
      code: null,
      interface: null,
    });
  });

  it("takes --interface fenetre|zenity|terminal (issue 27) and refuses others in French", () => {
    expect(parseCli(["--interface", "zenity"], "https://a.example")).toMatchObject({
      kind: "run",
      interface: "zenity",
    });
    expect(parseCli(["-i", "Fenêtre"], "https://a.example")).toMatchObject({ interface: "fenetre" });
    expect(parseCli(["--help", "--interface", "terminal"], "https://a.example")).toMatchObject({
      kind: "help",
      interface: "terminal",
      text: expect.stringContaining("--interface NOM"),
    });
    expect(parseCli(["--interface", "gtk"], "https://a.example")).toEqual({
      kind: "error",
      message: expect.stringMatching(/^Interface inconnue : « gtk »/),
    });
  });

  it("lets --server override the built-in address", () => {
    expect(parseCli(["--server", "http://127.0.0.1:4000"], "https://built.example")).toMatchObject({
      server: "http://127.0.0.1:4000",
    });
  });

  it("asks for --server in French when the download carries no address", () => {
    expect(parseCli([], undefined)).toEqual({ kind: "error", message: expect.stringMatching(/--server/) });
  });

  it("prints help and version in French", () => {
    const help = parseCli(["--help"], "https://built.example");
    expect(help).toMatchObject({ kind: "help", text: expect.stringContaining("https://built.example") });
    expect(help.kind === "help" && help.text).toMatch(/Ctrl\+C/);
    expect(parseCli(["--version"], undefined)).toMatchObject({
      kind: "version",
      text: expect.stringMatching(/\d+\.\d+\.\d+/),
    });
  });

  it("refuses plain http except to this computer, and paths", () => {
    expect(() => normalizeServerUrl("http://atelier.example")).toThrow(/https/);
    expect(normalizeServerUrl("http://localhost:3000")).toBe("http://localhost:3000");
    expect(normalizeServerUrl("http://[::1]:3000")).toBe("http://[::1]:3000");
    expect(() => normalizeServerUrl("https://atelier.example/base")).toThrow(/sans chemin/);
    expect(() => normalizeServerUrl("ftp://atelier.example")).toThrow();
    expect(() => normalizeServerUrl("pas une adresse")).toThrow(/invalide/);
  });

  it("explains bad options and bad codes in French", () => {
    expect(parseCli(["--insecure"], "https://a.example")).toEqual({
      kind: "error",
      message: expect.stringMatching(/^Option inconnue : --insecure/),
    });
    expect(parseCli(["--code"], "https://a.example")).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/attend une valeur/),
    });
    expect(parseCli(["--code", "BBBB-0000"], "https://a.example")).toEqual({
      kind: "error",
      message: "Ce code d'appairage n'est pas valide.",
    });
    expect(parseCli(["extra"], "https://a.example")).toMatchObject({ kind: "error" });
  });
  it("takes --reprendre FICHIER (issue 36 §4: the app relaunched as administrator), hidden from the help", () => {
    expect(
      parseCli(["--server", "https://atelier.example", "--reprendre", "C:\\Temp\\reprise.json"], undefined),
    ).toEqual({
      kind: "run",
      server: "https://atelier.example",
      code: null,
      interface: null,
      resume: "C:\\Temp\\reprise.json",
    });
    expect(helpText(undefined)).not.toContain("--reprendre");
  });

  it("offers zenity on Linux only, and says « console » on Windows (issue 36 §3)", () => {
    const linux = helpText(undefined, "atelier-assistance", "linux");
    expect(linux).toContain("--interface NOM    fenetre, zenity ou terminal");
    const windows = helpText(undefined, "atelier-assistance.exe", "win32");
    expect(windows).toContain("--interface NOM    fenetre ou terminal");
    expect(windows).not.toContain("zenity");
    expect(windows).toContain("Ctrl+C (ou fermer la console) arrête tout.");
    expect(helpText(undefined, "atelier-assistance", "darwin")).not.toContain("zenity");
    expect(parseCli(["--help"], undefined, "atelier-assistance.exe", "win32")).toMatchObject({
      kind: "help",
      text: expect.stringContaining("fenetre ou terminal"),
    });
  });
});
