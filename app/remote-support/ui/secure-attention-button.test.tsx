// @vitest-environment happy-dom
/**
 * « Ctrl+Alt+Suppr » in the technician's view (issue 36 §2): sent to a Linux app; on Windows sent too (the app
 * tells the customer) and refused here at once with the app's own explanation; absent on macOS and while
 * control is off.
 */
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SAS_REASON_WINDOWS } from "#app/remote-support/device-protocol.ts";
import { SecureAttentionButton } from "./secure-attention-button";

afterEach(cleanup);

describe("SecureAttentionButton", () => {
  it("sends the combination to a Linux app and says nothing more", async () => {
    const send = vi.fn();
    render(<SecureAttentionButton platform="linux" send={send} />);
    await userEvent.click(screen.getByRole("button", { name: "Ctrl+Alt+Suppr" }));
    expect(send).toHaveBeenCalledOnce();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("on Windows asks the app and shows why Windows refuses it", async () => {
    const send = vi.fn();
    render(<SecureAttentionButton platform="windows" send={send} />);
    await userEvent.click(screen.getByRole("button", { name: "Ctrl+Alt+Suppr" }));
    expect(send).toHaveBeenCalledOnce();
    expect(screen.getByRole("status").textContent).toBe(SAS_REASON_WINDOWS);
    expect(SAS_REASON_WINDOWS).toMatch(/^Windows réserve Ctrl\+Alt\+Suppr au système/u);
  });

  it("is absent on macOS, and while control is off", () => {
    const { container, rerender } = render(<SecureAttentionButton platform="macos" send={vi.fn()} />);
    expect(container.textContent).toBe("");
    rerender(<SecureAttentionButton platform="windows" send={null} />);
    expect(container.textContent).toBe("");
  });
});
