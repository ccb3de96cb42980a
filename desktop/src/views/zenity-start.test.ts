/**
 * Issue 40, zenity's first question (`zenity-start.ts`) with the dialogs played by the test: « Votre prénom » first,
 * « J'ai un code d'appairage » (zenity's extra button: its label on stdout, exit code 1) opens the pairing code's
 * entry, whose extra button goes back; « Annuler » or a closed dialog is no answer.
 */
import { describe, expect, it } from "vitest";
import { askStartEntries, startEntry, type ZenityRun } from "./zenity-start.ts";
import { START_TEXTS } from "./texts.ts";

const TITLES = { name: "Démarrer", code: "Code d'appairage" };
const escape = (text: string) => text.replace(/&/g, "&amp;");

/** Dialogs that answer `answers` in turn; `asked` keeps each dialog's arguments. */
function dialogs(answers: { code: number | null; output: string }[]) {
  const asked: string[][] = [];
  const run: ZenityRun = (args) => {
    asked.push(args);
    return { done: Promise.resolve(answers.shift() ?? { code: null, output: "" }) };
  };
  return { run, asked };
}

describe("zenity's first question", () => {
  it("asks the first name, with « J'ai un code d'appairage » as its extra button", async () => {
    const { run, asked } = dialogs([{ code: 0, output: "Marie\n" }]);
    expect(await askStartEntries(run, TITLES, null, "name", escape)).toEqual({ text: "Marie", field: "name" });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("--entry");
    expect(asked[0]).toContain(`--title=${TITLES.name}`);
    expect(asked[0]).toContain("--extra-button=J'ai un code d'appairage");
    expect(asked[0]!.find((arg) => arg.startsWith("--text="))).toMatch(/\n\nVotre prénom$/u);
  });

  it("opens the pairing code's entry from the extra button, and goes back from its own", async () => {
    const { run, asked } = dialogs([
      { code: 1, output: `${START_TEXTS.codeLink}\n` },
      { code: 1, output: `${START_TEXTS.nameLink}\n` },
      { code: 1, output: `${START_TEXTS.codeLink}\n` },
      { code: 0, output: "acde-3479\n" },
    ]);
    expect(await askStartEntries(run, TITLES, null, "name", escape)).toEqual({ text: "acde-3479", field: "code" });
    expect(asked.map((args) => args[1])).toEqual([
      `--title=${TITLES.name}`,
      `--title=${TITLES.code}`,
      `--title=${TITLES.name}`,
      `--title=${TITLES.code}`,
    ]);
    expect(asked[1]!.find((arg) => arg.startsWith("--text="))).toContain("ACDE-3479");
    expect(asked[1]).toContain(`--extra-button=${START_TEXTS.nameLink}`);
  });

  it("is no answer when cancelled or closed; a refused code is asked again in its own entry, with why", async () => {
    expect(await askStartEntries(dialogs([{ code: 1, output: "" }]).run, TITLES, null, "name", escape)).toBeNull();
    expect(await askStartEntries(dialogs([{ code: null, output: "" }]).run, TITLES, null, "code", escape)).toBeNull();
    const args = startEntry("code", TITLES, "Ce code d'appairage n'est pas valide.", escape);
    expect(args).toContain(`--title=${TITLES.code}`);
    expect(args.find((arg) => arg.startsWith("--text="))).toContain("⚠ Ce code d'appairage n'est pas valide.");
  });
});
