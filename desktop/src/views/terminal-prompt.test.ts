/**
 * The terminal's first question (`promptStart`, issue 40: « Votre prénom »): the answer typed, or null when
 * input ends or fails (Windows' unreadable file descriptor 0, `launcher.ts`), never an uncaught error.
 */
import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { promptStart } from "./terminal.ts";

it("gives the first name typed", async () => {
  const stdin = new PassThrough();
  const asked = promptStart(stdin, new PassThrough(), () => {});
  stdin.write("Marie\n");
  await expect(asked).resolves.toBe("Marie");
});

it("gives null when the input fails, as when it ends", async () => {
  const stdin = new PassThrough();
  let interrupted = false;
  const asked = promptStart(stdin, new PassThrough(), () => (interrupted = true));
  stdin.destroy(Object.assign(new Error("bad file descriptor"), { code: "EBADF" }));
  await expect(asked).resolves.toBeNull();
  expect(interrupted).toBe(false);
});
