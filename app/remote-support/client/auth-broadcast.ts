/**
 * Sign-in changes between the tabs of one browser (issue 5, spec §4 "Auth
 * events"): a `BroadcastChannel`, immediate and working even while a tab's
 * socket reconnects, with a `storage` event as the fallback for browsers
 * without BroadcastChannel. The server's `auth:ended` (`session-events.ts`)
 * covers the other browsers. Separate from the Socket.IO client so the
 * signed-out /soft-assist downloads none of it (issue 16).
 */
const CHANNEL = "atelier-soft-assist-auth";
const STORAGE_KEY = "atelier-soft-assist-signed-out";

// One channel per tab, for sending and listening: a BroadcastChannel never receives its own messages, whereas a
// second instance in the same tab would, and the tab that signed in would then reload its own view a second time.
let tabChannel: BroadcastChannel | undefined;
const channel = () => (tabChannel ??= new BroadcastChannel(CHANNEL));

/** Tells the other tabs of this browser that the account signed out (or in: they reload their view). */
export function announceAuthChange(kind: "signed-out" | "signed-in"): void {
  if (typeof BroadcastChannel !== "undefined") {
    channel().postMessage(kind);
    return;
  }
  try {
    // A new value each time, so the `storage` event fires even for the same kind twice.
    localStorage.setItem(STORAGE_KEY, `${kind}:${Date.now()}`);
  } catch {
    // Storage disabled: the server's `auth:ended` still reaches the other tabs.
  }
}

/** Calls `listener` when another tab announces a change; returns the unsubscribe function. */
export function onAuthChangeElsewhere(listener: (kind: "signed-out" | "signed-in") => void): () => void {
  if (typeof BroadcastChannel !== "undefined") {
    const onMessage = (event: MessageEvent) => {
      if (event.data === "signed-out" || event.data === "signed-in") listener(event.data);
    };
    channel().addEventListener("message", onMessage);
    return () => channel().removeEventListener("message", onMessage);
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY || !event.newValue) return;
    listener(event.newValue.startsWith("signed-in") ? "signed-in" : "signed-out");
  };
  window.addEventListener("storage", onStorage);
  return () => window.removeEventListener("storage", onStorage);
}
