// @vitest-environment happy-dom
/**
 * The technician's remote view with the desktop app's own picture (issue
 * 26), against a fake socket and a stubbed `createImageBitmap`:
 * - without `appPicture` the WebRTC video stays, and the picture area says
 *   why the app sends no picture (no view consent, no capture);
 * - with `appPicture` a canvas replaces the video, "En attente de l'image du
 *   logiciel…" until the first full picture, then its size and rate;
 * - "Écran affiché" lists the monitors and asks the server for another;
 * - the pointer over the canvas travels as fractions of the drawn picture
 *   (letterboxing excluded), only while it shows the monitor the server
 *   relays input to; keys go as over the video, without any data channel;
 * - issue 36 §4: while Windows shows its secure desktop the last picture is
 *   covered by « Le client doit répondre à la fenêtre de Windows … », and it
 *   comes back by itself; a Windows app without administrator rights is said
 *   so, « Relancer en administrateur » asks it, and the outcome is shown.
 */
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { ScreenViewerState } from "#app/remote-support/client/use-screen-viewer.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import type { SessionView } from "#app/remote-support/protocol.ts";
import { packRects, type ScreenFrame } from "#app/remote-support/screen-protocol.ts";
import { fpsText } from "./app-screen-bar";
import { ELEVATION_MESSAGES } from "#app/remote-support/elevation-protocol.ts";
import { RemoteView } from "./remote-view";

const CODE = "ACD34F";

const session: SessionView = {
  id: "s1",
  code: CODE,
  status: "connected",
  userId: "c",
  technicianId: "t",
  technicianFirstName: "Camille",
  startTime: "2026-01-01T10:00:00.000Z",
  endTime: null,
  durationSeconds: null,
  createdAt: "2026-01-01T09:59:00.000Z",
  userName: "Alice",
  userEmail: "alice@exemple.fr",
  origin: "site",
};

const SCREENS = [
  { id: "ecran-a", x: 0, y: 0, width: 1920, height: 1080, scale: 1, primary: true },
  { id: "ecran-b", x: 1920, y: 0, width: 1280, height: 1024, scale: 1, primary: false },
];

const device = (overrides: Partial<DeviceView> = {}): DeviceView => ({
  paired: true,
  connected: true,
  computerName: "PC-SALON",
  platform: "linux",
  injection: { ok: true },
  screens: [SCREENS[0]!],
  shownScreen: "ecran-a",
  wholeScreen: false,
  consent: true,
  controlRequested: false,
  controlActive: false,
  viewConsent: true,
  capture: { ok: true },
  appPicture: true,
  ...overrides,
});

/** A socket that records what is emitted; `push` plays a server event to the listeners. */
function fakeSocket() {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const emitted: { event: string; body: unknown }[] = [];
  const socket = {
    connected: true,
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return socket;
    },
    off(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener);
      return socket;
    },
    emit(event: string, body: unknown) {
      emitted.push({ event, body });
      return socket;
    },
    // Issue 36 §4: « Relancer en administrateur » waits for the server's answer.
    timeout: () => ({
      emitWithAck: async (event: string, body: unknown) => {
        emitted.push({ event, body });
        return { ok: true };
      },
    }),
  };
  const push = async (event: string, ...args: unknown[]) => {
    await act(async () => {
      for (const listener of listeners.get(event) ?? []) listener(...args);
      // Lets the decodes and the draw finish.
      for (let i = 0; i < 20; i += 1) await Promise.resolve();
    });
  };
  const sent = (event: string) => emitted.filter((entry) => entry.event === event).map((entry) => entry.body);
  return { socket: socket as unknown as RealtimeSocket, push, sent };
}

function fakeViewer(overrides: Partial<ScreenViewerState> = {}): ScreenViewerState {
  return {
    state: "waiting",
    stream: null,
    roundTripMs: null,
    channelOpen: false,
    send: vi.fn(() => false),
    ...overrides,
  };
}

const fullFrame = (overrides: Partial<ScreenFrame> = {}): ScreenFrame & { code: string } => ({
  code: CODE,
  screen: "ecran-a",
  seq: 1,
  width: 1920,
  height: 1080,
  full: true,
  ...packRects([{ x: 0, y: 0, w: 1920, h: 1080, jpeg: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]).buffer }]),
  ...overrides,
});

function renderView(view: DeviceView | null, viewer = fakeViewer()) {
  const fake = fakeSocket();
  const props = {
    session,
    viewer,
    open: true,
    onReduce: () => {},
    onEnd: () => {},
    ending: false,
    serverLink: "connected" as const,
    socket: fake.socket,
  };
  const result = render(<RemoteView {...props} device={view} />);
  const rerender = (next: DeviceView | null, open = true) =>
    result.rerender(<RemoteView {...props} device={next} open={open} />);
  return { ...fake, rerender };
}

const canvas = () => screen.queryByRole("img", { name: "Image de l'écran du client" }) as HTMLCanvasElement | null;

beforeEach(() => {
  vi.stubGlobal(
    "createImageBitmap",
    vi.fn(async () => ({ close: () => {} })),
  );
  // The assistant's conversation (none) and the session's record (no event yet: the chat reads it).
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => Response.json({ conversation: [], events: [] }));
});
afterEach(() => vi.unstubAllGlobals());

describe("RemoteView without the app's picture", () => {
  it("keeps the video and the share's state", () => {
    renderView(null);
    expect(screen.getByTestId("remote-video")).toBeVisible();
    expect(canvas()).toBeNull();
    expect(screen.getAllByText("En attente du partage d'écran du client…").length).toBeGreaterThan(0);
    expect(screen.getByRole("button", { name: "Envoyer souris et clavier" })).toBeDisabled();
  });

  it("says when the customer has not allowed the app to show the screen", () => {
    renderView(device({ viewConsent: false, appPicture: false }));
    expect(
      screen.getByText("Le client n'a pas encore autorisé l'affichage de son écran dans le logiciel."),
    ).toBeVisible();
    expect(screen.getByTestId("remote-video")).toBeVisible();
  });

  it("gives the app's reason when it cannot capture the screen, quoted as the app's words (issue 37 §6)", () => {
    const reason = "La capture de l'écran n'est pas possible sous Wayland : ouvrez une session X11.";
    renderView(device({ capture: { ok: false, reason }, viewConsent: false, appPicture: false }));
    expect(screen.getByText(`Le logiciel indique : « ${reason} »`)).toBeVisible();
    expect(screen.queryByText(/n'a pas encore autorisé l'affichage/u)).toBeNull();
  });

  it("says nothing of the sort for an app older than the picture (no capture field)", () => {
    renderView(device({ capture: null, viewConsent: false, appPicture: false }));
    expect(screen.queryByText(/n'a pas encore autorisé l'affichage/u)).toBeNull();
  });
});

describe("RemoteView with the app's picture", () => {
  it("shows a canvas instead of the video, waits for the first picture, then says where it comes from", async () => {
    const { push, sent, rerender } = renderView(device());
    const surface = screen.getByRole("application", { name: "Écran du client" });
    expect(within(surface).getByRole("img", { name: "Image de l'écran du client" })).toBeVisible();
    expect(screen.getByTestId("remote-video")).not.toBeVisible();
    expect(within(surface).getByText("En attente de l'image du logiciel…")).toBeVisible();
    // Input goes through the server: no data channel needed to turn it on.
    expect(screen.getByRole("button", { name: "Envoyer souris et clavier" })).toBeEnabled();

    await push("screen:frame", fullFrame());
    expect(within(surface).queryByText("En attente de l'image du logiciel…")).toBeNull();
    expect(screen.getByText("Écran du client affiché")).toBeVisible();
    expect(screen.getByTestId("app-screen-note")).toHaveTextContent(
      "Image transmise par le logiciel · 1920 × 1080 · 1 image/s",
    );
    expect(canvas()).toHaveProperty("width", 1920);
    expect(sent("screen:ack")).toEqual([{ code: CODE, seq: 1 }]);

    // The customer withdraws the view: the picture goes, the video is back.
    rerender(device({ viewConsent: false, appPicture: false }));
    expect(canvas()).toBeNull();
    expect(screen.getByTestId("remote-video")).toBeVisible();
    await push("screen:frame", fullFrame({ seq: 2 }));
    expect(sent("screen:ack")).toHaveLength(1);
  });

  it("keeps the picture while the view is reduced, and shows it again on reopening", async () => {
    const { push, sent, rerender } = renderView(device());
    await push("screen:frame", fullFrame());
    rerender(device(), false);
    expect(canvas()).toBeNull();
    await push("screen:frame", { ...fullFrame(), seq: 2, full: false }); // still drawn and acknowledged meanwhile
    expect(sent("screen:ack")).toHaveLength(2);
    rerender(device(), true);
    expect(canvas()).toHaveProperty("width", 1920);
    expect(screen.queryByText("En attente de l'image du logiciel…")).toBeNull();
    // Asked once when the view opened (its first picture may have gone by), not again on reopening.
    expect(sent("screen:refresh")).toEqual([{ code: CODE }]);
  });

  it("offers the monitors and asks the server for the one chosen, or for a fresh picture", async () => {
    const user = userEvent.setup();
    const { sent, rerender } = renderView(device({ screens: SCREENS, shownScreen: "ecran-b" }));
    const choice = screen.getByRole("combobox", { name: "Écran affiché" });
    expect(choice).toHaveValue("ecran-b");
    expect(
      within(choice)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["Écran 1 (principal) — 1920 × 1080", "Écran 2 — 1280 × 1024"]);

    await user.selectOptions(choice, "Écran 1 (principal) — 1920 × 1080");
    expect(sent("screen:select")).toEqual([{ code: CODE, screen: "ecran-a" }]);
    rerender(device({ screens: SCREENS, shownScreen: "ecran-a" }));
    expect(screen.getByRole("combobox", { name: "Écran affiché" })).toHaveValue("ecran-a");

    await user.click(screen.getByRole("button", { name: "Actualiser l'image" }));
    expect(sent("screen:refresh")).toContainEqual({ code: CODE });

    rerender(device());
    expect(screen.queryByRole("combobox", { name: "Écran affiché" })).toBeNull();
  });

  it("sends the pointer as fractions of the drawn picture, bars excluded, and the keys, without a data channel", async () => {
    const user = userEvent.setup();
    const view = device({ controlActive: true, screens: SCREENS });
    const { push, sent } = renderView(view);
    // A 16:9 picture in an 800 × 600 element at (100, 50): drawn 800 × 450, bars of 75 px above and below.
    await push("screen:frame", fullFrame({ width: 1600, height: 900 }));
    const picture = canvas()!;
    vi.spyOn(picture, "getBoundingClientRect").mockReturnValue(
      DOMRect.fromRect({ x: 100, y: 50, width: 800, height: 600 }),
    );
    const input = () => sent("input").flatMap((batch) => (batch as { events: unknown[] }).events);

    fireEvent.pointerDown(picture, { clientX: 500, clientY: 50 + 75 + 450 * 0.25, button: 0, pointerId: 1 });
    expect(input()).toEqual([]); // control is off

    await user.click(screen.getByRole("button", { name: "Envoyer souris et clavier" }));
    expect(screen.getByRole("application", { name: "Écran du client" })).toHaveFocus();
    fireEvent.pointerDown(picture, { clientX: 500, clientY: 50 + 40, button: 0, pointerId: 1 }); // on the upper bar
    expect(input()).toEqual([]);

    fireEvent.pointerDown(picture, { clientX: 500, clientY: 50 + 75 + 450 * 0.25, button: 0, pointerId: 1 });
    fireEvent.pointerUp(picture, { clientX: 100 + 800, clientY: 50 + 75 + 450, button: 0, pointerId: 1 });
    expect(input()).toEqual([
      { t: "move", x: 0.5, y: 0.25 },
      { t: "button", button: 0, down: true },
      { t: "move", x: 1, y: 1 },
      { t: "button", button: 0, down: false },
    ]);
    expect(sent("input")[0]).toMatchObject({ code: CODE });

    await user.keyboard("é");
    expect(input().at(-1)).toEqual({ t: "text", text: "é" });
    await user.keyboard("{Shift>}{Escape}{/Shift}");
    expect(screen.getByRole("button", { name: "Envoyer souris et clavier" })).toHaveAttribute("aria-pressed", "false");
  });

  it("sends no pointer while the picture still shows the monitor left for another", async () => {
    const user = userEvent.setup();
    const { push, sent } = renderView(device({ controlActive: true, screens: SCREENS, shownScreen: "ecran-b" }));
    await push("screen:frame", fullFrame({ screen: "ecran-a" }));
    const picture = canvas()!;
    vi.spyOn(picture, "getBoundingClientRect").mockReturnValue(
      DOMRect.fromRect({ x: 0, y: 0, width: 1920, height: 1080 }),
    );
    await user.click(screen.getByRole("button", { name: "Envoyer souris et clavier" }));
    expect(screen.getByTestId("app-screen-note")).toHaveTextContent("changement d'écran…");

    fireEvent.pointerDown(picture, { clientX: 960, clientY: 540, button: 0, pointerId: 1 });
    expect(sent("input")).toEqual([]);

    await push("screen:frame", fullFrame({ screen: "ecran-b", seq: 2, width: 1280, height: 1024 }));
    vi.spyOn(picture, "getBoundingClientRect").mockReturnValue(
      DOMRect.fromRect({ x: 0, y: 0, width: 1280, height: 1024 }),
    );
    fireEvent.pointerDown(picture, { clientX: 640, clientY: 256, button: 0, pointerId: 1 });
    expect(sent("input").flatMap((batch) => (batch as { events: unknown[] }).events)).toEqual([
      { t: "move", x: 0.5, y: 0.25 },
      { t: "button", button: 0, down: true },
    ]);
  });
});

describe("fpsText", () => {
  it("says the rate, and for a still screen when the last picture came", () => {
    expect(fpsText(12)).toBe("12 images/s");
    expect(fpsText(1)).toBe("1 image/s");
    expect(fpsText(0)).toBe("0 image/s");
    // The shop's wall clock (Paris, UTC+1 in January), as every date of the dashboard.
    expect(fpsText(0, Date.UTC(2026, 0, 1, 13, 2, 31))).toBe("0 image/s (dernière image à 14:02:31)");
    expect(fpsText(3, Date.now())).toBe("3 images/s");
  });
});

describe("RemoteView past UAC (issue 36 §4)", () => {
  it("covers the last picture while Windows shows its secure desktop, and shows it again afterwards", async () => {
    const { push, rerender } = renderView(device({ platform: "windows", elevated: false }));
    const surface = screen.getByRole("application", { name: "Écran du client" });
    await push("screen:frame", fullFrame());
    expect(screen.getByText("Écran du client affiché")).toBeVisible();

    rerender(device({ platform: "windows", elevated: false, secureDesktop: true }));
    expect(
      within(surface).getByText("Le client doit répondre à la fenêtre de Windows (contrôle de compte d'utilisateur)"),
    ).toBeVisible();
    expect(screen.getByText(ELEVATION_MESSAGES.paused)).toBeVisible();

    rerender(device({ platform: "windows", elevated: false, secureDesktop: false }));
    expect(within(surface).queryByText(ELEVATION_MESSAGES.secureDesktop)).toBeNull();
    expect(screen.getByText("Écran du client affiché")).toBeVisible();
  });

  it("says a Windows app runs without administrator rights, asks to relaunch it, and shows the outcome", async () => {
    const user = userEvent.setup();
    const { push, sent, rerender } = renderView(device({ platform: "windows", elevated: false }));
    expect(screen.getByText(/Le logiciel fonctionne sans droits d'administrateur/u)).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Relancer en administrateur" }));
    expect(sent("device:elevate")).toEqual([{ code: CODE }]);
    expect(await screen.findByText(ELEVATION_MESSAGES.asked)).toBeVisible();

    await push("device:elevation", { code: CODE, outcome: "cancelled", message: ELEVATION_MESSAGES.cancelled });
    const alerts = within(screen.getByTestId("elevation")).getAllByRole("alert");
    expect(alerts.map((alert) => alert.textContent)).toEqual([ELEVATION_MESSAGES.cancelled]);
    expect(screen.queryByText(ELEVATION_MESSAGES.asked)).toBeNull();

    // Back, relaunched as administrator: no button any more.
    rerender(device({ platform: "windows", elevated: true }));
    expect(screen.getByText(ELEVATION_MESSAGES.elevated)).toBeVisible();
    expect(screen.queryByRole("button", { name: "Relancer en administrateur" })).toBeNull();
  });

  it("offers nothing for an app on another system or older than issue 36", () => {
    const { rerender } = renderView(device({ platform: "linux", elevated: null }));
    expect(screen.queryByRole("button", { name: "Relancer en administrateur" })).toBeNull();
    rerender(device({ platform: "windows" }));
    expect(screen.queryByText(/sans droits d'administrateur/u)).toBeNull();
    expect(screen.queryByRole("button", { name: "Relancer en administrateur" })).toBeNull();
  });
});
