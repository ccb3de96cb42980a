/**
 * The terminal's keys read from a pipe (a launcher, a test): « f » and the path after it, or « m » and the message
 * after it, may come in one chunk; the path or the message then goes where it belongs, whatever letters it holds
 * (issue 38 §1, §2: the « m » of « /tmp » started a message instead of sending the file).
 */
import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { listenKeys } from "./terminal.ts";
import type { ViewActions } from "./view.ts";

function recorder() {
  const done: string[] = [];
  const actions: ViewActions = {
    view: () => void done.push("view"),
    allowControl: () => void done.push("control"),
    withdraw: () => void done.push("withdraw"),
    stop: () => void done.push("stop"),
    sendChat: async (text) => (done.push(`message:${text}`), true),
    sendFile: (path) => void done.push(`file:${path}`),
  };
  return { actions, done };
}
const always = { available: () => true, onDraft: () => undefined };
const settle = () => new Promise((resolve) => setImmediate(resolve));

it("a path after F in the same chunk is sent as a file, never read as keys or a message", async () => {
  const { actions, done } = recorder();
  const stdin = new PassThrough();
  const stop = listenKeys(stdin, actions, always, always);
  stdin.write("f\n/tmp/atelier-client-vcm/journal.txt\n");
  await settle();
  stdin.write("m\nmon message, avec v et c\nv\n");
  await settle();
  stop();
  expect(done).toEqual(["file:/tmp/atelier-client-vcm/journal.txt", "message:mon message, avec v et c", "view"]);
});
