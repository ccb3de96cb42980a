/**
 * Issue 27: the interface the app picks by itself, and what `--help` says
 * about it, when no graphical session is there (the window and zenity need
 * one): the terminal, with the reasons. On a display, `window.xvfb.test.ts`.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { type ChooseContext, describeInterface, openView } from "./choose.ts";

function context(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = "linux"): ChooseContext & { said: string[] } {
  const said: string[] = [];
  return {
    platform,
    env,
    windowCommand: ["/nulle-part/atelier", "--fenetre"],
    stdin: new PassThrough(),
    stdout: { write: () => true },
    stderr: { write: (text: string) => said.push(text) },
    said,
  };
}

describe("choosing the interface", () => {
  it("uses the terminal without a display, and says why the window could not open when it was asked for", async () => {
    const noDisplay = context({ PATH: "/usr/bin" });
    expect((await openView(null, noDisplay, { onClose: () => {} })).kind).toBe("terminal");
    expect((await openView("fenetre", noDisplay, { onClose: () => {} })).kind).toBe("terminal");
    expect(noDisplay.said.join("")).toContain("Fenêtre indisponible : pas d'affichage graphique");
  });

  it("tells --help which interface it will be, and why not the others", async () => {
    expect(await describeInterface(null, context({ PATH: "/usr/bin" }))).toBe(
      "Interface : ce terminal (fenêtre indisponible : pas d'affichage graphique ; zenity indisponible).",
    );
    expect(await describeInterface("terminal", context({ DISPLAY: ":0", PATH: "/usr/bin" }))).toBe(
      "Interface : ce terminal.",
    );
    // A window process that cannot start (here: a missing file) is a reason too.
    const broken = context({ DISPLAY: ":0", PATH: "/nulle-part" });
    expect(await describeInterface(null, broken)).toMatch(
      /^Interface : ce terminal \(fenêtre indisponible : .*ENOENT.* ; zenity indisponible\)\.$/,
    );
  });
});
