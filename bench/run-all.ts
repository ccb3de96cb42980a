/** Runs every benchmark in turn (`npm run bench`). Each prints its own figures. */
import { spawnSync } from "node:child_process";
import path from "node:path";

for (const script of [
  "startup.ts",
  "js-size.ts",
  "finder.ts",
  "throughput.ts",
  "lighthouse.ts",
  "post-contact.ts",
  "booking.ts",
  "remote-support.ts",
  "remote-control.ts",
  "assistant.ts",
  "signaling-flood.ts",
  "restart.ts",
  "auth-field-bounds.ts",
  "bad-inputs.ts",
  "desktop-size.ts",
  "desktop-control.ts",
  "desktop-window.ts",
  "queue-latency.ts",
]) {
  console.log(`\n== bench/${script}`);
  spawnSync(process.execPath, [path.join(import.meta.dirname, script)], { stdio: "inherit" });
}
