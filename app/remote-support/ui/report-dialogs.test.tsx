// @vitest-environment happy-dom
/**
 * « Rapport » in the history (spec §2): the dialog shows the report asked for last. A slower answer for a
 * report asked before, or one arriving after « Fermer », opens nothing.
 */
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, expect, it, vi } from "vitest";
import type { SessionReport } from "#app/remote-support/protocol.ts";
import { ReportFlow } from "./report-dialogs";

afterEach(() => vi.restoreAllMocks());

const report = (code: string): SessionReport => ({
  code,
  startTime: "2026-01-05T10:00:00.000Z",
  endTime: "2026-01-05T10:20:00.000Z",
  durationSeconds: 1200,
  userName: "Marie",
  userEmail: null,
  origin: "app",
  events: [],
});

/** The history's two « Rapport » buttons; the first report's answer waits for `release`. */
function renderTwoReports() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = String(input);
    if (url === "/api/sessions/ACDE34/report") {
      await held;
      return Response.json({ report: report("ACDE34") });
    }
    if (url === "/api/sessions/KMN679/report") return Response.json({ report: report("KMN679") });
    return Response.json({ message: "?" }, { status: 404 });
  });
  render(
    <ReportFlow>
      {(openReport) => (
        <>
          <button type="button" onClick={() => openReport("ACDE34")}>
            Rapport ACDE34
          </button>
          <button type="button" onClick={() => openReport("KMN679")}>
            Rapport KMN679
          </button>
        </>
      )}
    </ReportFlow>,
  );
  /** Lets the held answer land (its JSON read and its state set) within an act. */
  const land = () =>
    act(async () => {
      release();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
  return { land };
}

it("shows the report asked for last when the one asked before answers after it", async () => {
  const { land } = renderTwoReports();
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Rapport ACDE34" }));
  await user.click(screen.getByRole("button", { name: "Rapport KMN679" }));
  const dialog = await screen.findByRole("dialog", { name: "Rapport de session" });
  expect(dialog).toHaveTextContent("KMN 679");
  await land();
  expect(screen.getByRole("dialog", { name: "Rapport de session" })).toHaveTextContent("KMN 679");
  expect(screen.getByRole("dialog", { name: "Rapport de session" })).not.toHaveTextContent("ACD E34");
});

it("opens nothing when a report's answer arrives after the dialog was closed", async () => {
  const { land } = renderTwoReports();
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Rapport ACDE34" }));
  await user.click(screen.getByRole("button", { name: "Rapport KMN679" }));
  await user.click(
    within(await screen.findByRole("dialog", { name: "Rapport de session" })).getAllByRole("button", {
      name: "Fermer",
    })[0]!,
  );
  await land();
  expect(screen.queryByRole("dialog")).toBeNull();
});
