// @vitest-environment happy-dom
/**
 * Issue 38 §3, « Reboot and reconnect », in the technician's remote view (the header's `ElevationControl`, and the
 * picture area's words), against a fake socket: « Redémarrer l'ordinateur » for a connected app, a confirmation,
 * the request sent only once confirmed, « En attente de l'accord du client… », the customer's refusal as an alert,
 * « Redémarrage en cours… » while the server keeps the app's way back (in the header and over the picture), then
 * the app back; nothing without a connected app.
 */
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { RealtimeSocket } from "#app/remote-support/client/session-events.ts";
import type { DeviceView } from "#app/remote-support/device-protocol.ts";
import { REBOOT_MESSAGES } from "#app/remote-support/reboot-protocol.ts";
import { ElevationControl } from "./elevation-control";
import { pictureStatus, pictureText } from "./picture-status";

const CODE = "ACD34F";

const device = (overrides: Partial<DeviceView> = {}): DeviceView => ({
  paired: true,
  connected: true,
  computerName: "PC-SALON",
  platform: "linux",
  injection: { ok: true },
  screens: [{ id: "e", x: 0, y: 0, width: 1920, height: 1080, scale: 1, primary: true }],
  shownScreen: "e",
  wholeScreen: true,
  consent: false,
  controlRequested: false,
  controlActive: false,
  viewConsent: true,
  capture: { ok: true },
  appPicture: true,
  rebootingUntil: null,
  ...overrides,
});

/** A socket recording what is emitted with an acknowledgement; `push` plays a server event. */
function fakeSocket() {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const asked: unknown[] = [];
  const socket = {
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return socket;
    },
    off(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener);
      return socket;
    },
    timeout: () => ({
      emitWithAck: async (event: string, body: unknown) => {
        asked.push({ event, body });
        return { ok: true };
      },
    }),
  };
  const push = (event: string, ...args: unknown[]) =>
    act(async () => {
      for (const listener of listeners.get(event) ?? []) listener(...args);
      await Promise.resolve();
    });
  return { socket: socket as unknown as RealtimeSocket, push, asked };
}

describe("« Redémarrer l'ordinateur » in the remote view", () => {
  it("asks only once confirmed, waits for the customer, and shows the refusal", async () => {
    const user = userEvent.setup();
    const { socket, push, asked } = fakeSocket();
    render(<ElevationControl code={CODE} device={device()} socket={socket} />);
    await user.click(screen.getByRole("button", { name: REBOOT_MESSAGES.button }));
    const dialog = screen.getByRole("dialog", { name: REBOOT_MESSAGES.confirmTitle });
    expect(within(dialog).getByText(/enregistrer son travail/u)).toBeVisible();
    await user.click(within(dialog).getByRole("button", { name: REBOOT_MESSAGES.cancel }));
    expect(asked).toEqual([]);

    await user.click(screen.getByRole("button", { name: REBOOT_MESSAGES.button }));
    await user.click(
      within(screen.getByRole("dialog", { name: REBOOT_MESSAGES.confirmTitle })).getByRole("button", {
        name: REBOOT_MESSAGES.confirmButton,
      }),
    );
    expect(asked).toEqual([{ event: "reboot:request", body: { code: CODE } }]);
    expect(await screen.findByText(REBOOT_MESSAGES.asked)).toBeVisible();
    expect(screen.queryByRole("button", { name: REBOOT_MESSAGES.button })).toBeNull();

    await push("reboot:news", { code: CODE, outcome: "declined", message: REBOOT_MESSAGES.declined });
    const alerts = within(screen.getByTestId("reboot")).getAllByRole("alert");
    expect(alerts.map((alert) => alert.textContent)).toEqual([REBOOT_MESSAGES.declined]);
    expect(screen.getByRole("button", { name: REBOOT_MESSAGES.button })).toBeVisible();
  });

  it("says « Redémarrage en cours… » while the app is away, over the picture too, then that it is back", async () => {
    const { socket, push } = fakeSocket();
    const { rerender } = render(<ElevationControl code={CODE} device={device()} socket={socket} />);
    await push("reboot:news", { code: CODE, outcome: "restarting", message: REBOOT_MESSAGES.restarting });
    expect(screen.getByText(REBOOT_MESSAGES.restarting)).toBeVisible();

    const until = new Date(Date.now() + 15 * 60_000).toISOString();
    const away = device({ connected: false, appPicture: false, viewConsent: false, rebootingUntil: until });
    rerender(<ElevationControl code={CODE} device={away} socket={socket} />);
    expect(screen.getByText(REBOOT_MESSAGES.restarting)).toBeVisible();
    expect(screen.queryByRole("button", { name: REBOOT_MESSAGES.button })).toBeNull();
    const source = { app: null, viewer: { state: "waiting" as const, stream: null, roundTripMs: null }, device: away };
    expect(pictureStatus(source)).toBe(REBOOT_MESSAGES.restarting);
    expect(pictureText(source)).toContain(REBOOT_MESSAGES.restarting);

    const back = device({ appPicture: false, viewConsent: false });
    rerender(<ElevationControl code={CODE} device={back} socket={socket} />);
    expect(screen.getByText(REBOOT_MESSAGES.back)).toBeVisible();
    expect(screen.getByRole("button", { name: REBOOT_MESSAGES.button })).toBeVisible();
    expect(pictureText({ ...source, device: back })).not.toContain(REBOOT_MESSAGES.restarting);
  });

  it("says the app is back when its way back closes before its new link is announced (seen under Wine)", async () => {
    const { socket } = fakeSocket();
    const until = new Date(Date.now() + 15 * 60_000).toISOString();
    const away = device({ connected: false, appPicture: false, viewConsent: false, rebootingUntil: until });
    const { rerender } = render(<ElevationControl code={CODE} device={away} socket={socket} />);
    expect(screen.getByText(REBOOT_MESSAGES.restarting)).toBeVisible();
    // The ticket spent, the app not announced yet: nothing to say, and no button for an absent app.
    rerender(<ElevationControl code={CODE} device={{ ...away, rebootingUntil: null }} socket={socket} />);
    expect(screen.queryByText(REBOOT_MESSAGES.restarting)).toBeNull();
    rerender(
      <ElevationControl code={CODE} device={device({ appPicture: false, viewConsent: false })} socket={socket} />,
    );
    expect(screen.getByText(REBOOT_MESSAGES.back)).toBeVisible();
  });

  it("offers nothing without a connected app, nor once the way back has expired", () => {
    const { socket } = fakeSocket();
    const { rerender } = render(<ElevationControl code={CODE} device={null} socket={socket} />);
    expect(screen.queryByRole("button", { name: REBOOT_MESSAGES.button })).toBeNull();
    const expired = new Date(Date.now() - 1_000).toISOString();
    rerender(
      <ElevationControl code={CODE} device={device({ connected: false, rebootingUntil: expired })} socket={socket} />,
    );
    expect(screen.queryByTestId("reboot")).toBeNull();
  });
});
