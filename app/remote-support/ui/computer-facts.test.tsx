// @vitest-environment happy-dom
/**
 * Issue 38 §4, the computer's facts as the technician reads them, against a stubbed API: the waiting queue card's
 * short line, the remote view's « Informations de l'ordinateur » panel (the facts, or that none were sent, the
 * app's live elevation winning) and the session's report keeping them.
 */
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import { FACTS_TEXTS, type ComputerFacts } from "#app/remote-support/facts-protocol.ts";
import type { SessionReport } from "#app/remote-support/protocol.ts";
import type { QueueEntry } from "#app/remote-support/queue.ts";
import { ComputerFactsPanel } from "./computer-facts";
import { ReportFlow } from "./report-dialogs";
import { WaitingQueue } from "./waiting-queue";

const GIB = 1024 ** 3;
const FACTS: ComputerFacts = {
  os: { name: "Windows 11", version: "10.0.22631" },
  cpu: { model: "Intel(R) Core(TM) i5-1135G7", cores: 8 },
  memory: { total: 8 * GIB, free: 3 * GIB },
  disks: [{ mount: "C:", size: 256 * GIB, free: 15 * GIB }],
  battery: null,
  screens: [{ width: 1920, height: 1080 }],
  elevated: false,
};
const DEVICE = { paired: true, connected: true, computerName: "PC-SALON", elevated: null } as DeviceView;

/** `fetch` answering `routes[url]` (JSON), 404 otherwise. */
function stubApi(routes: Record<string, unknown>) {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    const url = String(input);
    return url in routes ? Response.json(routes[url]) : Response.json({ message: "?" }, { status: 404 });
  });
}

afterEach(() => vi.restoreAllMocks());

/** A term's value in a `<dl>`. */
const valueOf = (list: Element, term: string) =>
  [...list.querySelectorAll("dt")].find((element) => element.textContent === term)?.nextElementSibling?.textContent;

describe("the queue card", () => {
  it("shows the computer's short line in place of the bare system, before anyone joins", async () => {
    const entry: QueueEntry = {
      code: "ACDE34",
      userName: "Marie",
      origin: "app",
      system: "Windows",
      computer: "Windows 11 · 8 Go · disque plein à 94 %",
      waitingSince: new Date().toISOString(),
      conversationMessages: 0,
    };
    stubApi({ "/api/sessions/queue": { entries: [entry], at: "2026-01-05T10:00:00.000Z" } });
    const socket = {} as RealtimeSocket;
    Object.assign(socket, { on: () => socket, off: () => socket });
    render(<WaitingQueue socket={socket} onJoined={() => {}} />);
    const card = await screen.findByRole("listitem");
    expect(card).toHaveTextContent("depuis le logiciel · Windows 11 · 8 Go · disque plein à 94 %");
  });
});

describe("« Informations de l'ordinateur » in the remote view", () => {
  it("lists the facts the app sent", async () => {
    stubApi({ "/api/sessions/ACDE34/facts": { facts: FACTS } });
    render(<ComputerFactsPanel code="ACDE34" device={DEVICE} />);
    const panel = await screen.findByRole("region", { name: FACTS_TEXTS.heading });
    const list = panel.querySelector("dl")!;
    expect(valueOf(list, "Système")).toBe("Windows 11 (10.0.22631)");
    expect(valueOf(list, "Mémoire")).toBe("8 Go (3 Go libres)");
    expect(valueOf(list, "Disque C:")).toBe("256 Go, 15 Go libres (plein à 94 %)");
    expect(valueOf(list, "Batterie")).toBe("aucune");
    expect(valueOf(list, "Écran")).toBe("1920 × 1080");
    expect(valueOf(list, "Droits d'administrateur")).toBe("non");
  });

  it("says the app's elevation as it is now, once relaunched as administrator", async () => {
    stubApi({ "/api/sessions/ACDE34/facts": { facts: FACTS } });
    render(<ComputerFactsPanel code="ACDE34" device={{ ...DEVICE, elevated: true }} />);
    const panel = await screen.findByRole("region", { name: FACTS_TEXTS.heading });
    expect(valueOf(panel.querySelector("dl")!, "Droits d'administrateur")).toMatch(/^oui/);
  });

  it("says that none were sent when the customer unticked them, and shows nothing without an app", async () => {
    stubApi({ "/api/sessions/ACDE34/facts": { facts: null } });
    const { rerender } = render(<ComputerFactsPanel code="ACDE34" device={DEVICE} />);
    const panel = await screen.findByRole("region", { name: FACTS_TEXTS.heading });
    expect(panel).toHaveTextContent(FACTS_TEXTS.none);
    expect(panel.querySelector("dl")).toBeNull();
    rerender(<ComputerFactsPanel code="ACDE34" device={null} />);
    await waitFor(() => expect(screen.queryByRole("region")).toBeNull());
  });
});

describe("the session's report", () => {
  const report = (facts?: ComputerFacts): SessionReport => ({
    code: "ACDE34",
    startTime: "2026-01-05T10:00:00.000Z",
    endTime: "2026-01-05T10:20:00.000Z",
    durationSeconds: 1200,
    userName: "Marie",
    userEmail: null,
    origin: "app",
    events: [],
    ...(facts ? { computerFacts: facts } : {}),
  });
  const open = async () => {
    render(
      <ReportFlow>
        {(openReport) => (
          <button type="button" onClick={() => openReport("ACDE34")}>
            Rapport
          </button>
        )}
      </ReportFlow>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Rapport" }));
  };

  it("keeps the facts the app sent", async () => {
    stubApi({ "/api/sessions/ACDE34/report": { report: report(FACTS) } });
    await open();
    const list = await screen.findByLabelText(FACTS_TEXTS.heading);
    expect(valueOf(list, "Système")).toBe("Windows 11 (10.0.22631)");
    expect(valueOf(list, "Disque C:")).toBe("256 Go, 15 Go libres (plein à 94 %)");
  });

  it("has no such part when none were sent", async () => {
    stubApi({ "/api/sessions/ACDE34/report": { report: report() } });
    await open();
    await screen.findByText("Déroulement");
    expect(screen.queryByText(FACTS_TEXTS.heading)).toBeNull();
  });
});
