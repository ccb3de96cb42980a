import { describe, expect, it, vi } from "vitest";
import { announceAuthChange, onAuthChangeElsewhere } from "./auth-broadcast.ts";

describe("sign-in changes between tabs", () => {
  it("reach the listeners of another tab, never the tab that announced them", async () => {
    const heard = vi.fn();
    const stop = onAuthChangeElsewhere(heard);
    // This tab signs in: its own page already shows the new view and must not reload it a second time.
    announceAuthChange("signed-in");
    // Another tab of the same browser: a channel of the same name elsewhere.
    const otherTab = new BroadcastChannel("atelier-soft-assist-auth");
    otherTab.postMessage("signed-out");
    await vi.waitFor(() => expect(heard).toHaveBeenCalledWith("signed-out"), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard.mock.calls).toEqual([["signed-out"]]);
    otherTab.close();
    stop();
  });
});
