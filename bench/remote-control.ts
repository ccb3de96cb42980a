/**
 * Screen sharing and remote control (issue 6 benchmarks), in Debian's
 * Chromium on loopback (fake screen: a 1280×720 test pattern; no STUN),
 * against a production server process with a fresh PGlite DATA_DIR.
 *
 * 1. Click → first frame, `runs` times (default 20): the customer starts a
 *    session and shares the screen; the technician types the code and
 *    clicks "Se connecter". Measured in the technician's page: from the
 *    click (capturing listener) to the first frame presented by the remote
 *    video (`requestVideoFrameCallback`), ms — target ≤ 1 000 ms. The
 *    technician then closes the session and the next run starts.
 * 2. Control channel round trip, `pings` times (default 100): on one open
 *    session, the technician's page sends `ping` messages one after the
 *    other on the `control` data channel (the channel the dashboard opened,
 *    found by wrapping `RTCDataChannel.prototype.send` before the page
 *    loads) and times each `pong` sent back by the customer's page, ms —
 *    target ≤ 5 ms. The dashboard's own ping every 5 s keeps running.
 *
 *   node bench/remote-control.ts [runs=20] [pings=100]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import {
  CHROMIUM_ARGS,
  PASSWORD,
  SECRET,
  nextClick,
  seedAccounts,
  signedInPage,
  summary,
  type Account,
} from "./soft-assist-lib.ts";
import { signIn } from "#tests/support/remote-support.ts";
import { ensureBuild, freePort, startServer, stop } from "./lib.ts";

const runs = Number(process.argv[2] ?? 20);
const pings = Number(process.argv[3] ?? 100);

/** Resolves with the time (ms since the epoch) the next frame of the remote video is presented. */
function firstFrame(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const watch = (video: HTMLVideoElement) =>
          video.requestVideoFrameCallback((now) => resolve(performance.timeOrigin + now));
        const existing = document.querySelector<HTMLVideoElement>("[data-testid=remote-video]");
        if (existing) return watch(existing);
        const observer = new MutationObserver(() => {
          const video = document.querySelector<HTMLVideoElement>("[data-testid=remote-video]");
          if (!video) return;
          observer.disconnect();
          watch(video);
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
  );
}

async function shareNewSession(customer: Page): Promise<string> {
  await customer.getByRole("button", { name: "Démarrer une session d'assistance" }).click();
  await customer.getByText("En attente d'un technicien…").waitFor();
  const code = (await customer.getByRole("group", { name: /^Code de session/ }).textContent())!.trim();
  await customer.getByRole("button", { name: "Partager mon écran" }).click();
  await customer.getByRole("heading", { name: "Partage d'écran" }).waitFor();
  return code;
}

ensureBuild();
const dataDir = await mkdtemp(path.join(tmpdir(), "atelier-bench-rc-"));
const accounts = [
  { email: "client@banc.fr", name: "Client Banc", technician: false },
  { email: "tech@banc.fr", name: "Technicien Banc", technician: true },
];
await seedAccounts({ dataDir }, accounts);
const port = await freePort();
const server = await startServer(port, {
  DATA_DIR: dataDir,
  BETTER_AUTH_SECRET: SECRET,
  AUTH_SIGN_IN_LIMIT: "1000",
  LOG_LEVEL: "warn",
});
const url = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
try {
  const [customerAccount, techAccount] = (await Promise.all(
    accounts.map(async (account) => ({ ...account, cookie: await signIn(url, account.email, PASSWORD) })),
  )) as [Account, Account];
  const customer = await signedInPage(browser, url, customerAccount);
  const tech = await signedInPage(browser, url, techAccount, () => {
    // Keeps the data channels the page sends on, so the bench can ping on the dashboard's own channel.
    const channels: RTCDataChannel[] = ((window as unknown as { __channels: RTCDataChannel[] }).__channels = []);
    const send = RTCDataChannel.prototype.send;
    RTCDataChannel.prototype.send = function (this: RTCDataChannel, data: never) {
      if (!channels.includes(this)) channels.push(this);
      return send.call(this, data);
    };
  });
  await tech.getByText("Aucune session active.").waitFor();

  console.log(`1. click "Se connecter" → first decoded frame, ${runs} runs`);
  const toFrame: number[] = [];
  for (let i = 0; i < runs + 2; i += 1) {
    const code = await shareNewSession(customer);
    await tech.getByLabel("Code de session").fill(code);
    const clicked = nextClick(tech);
    const framed = firstFrame(tech);
    await tech.getByRole("button", { name: "Se connecter", exact: true }).click();
    const [clickAt, frameAt] = await Promise.all([clicked, framed]);
    // The first runs warm up the browser's media pipeline.
    if (i >= 2) toFrame.push(frameAt - clickAt);
    if (i < runs + 1) {
      await tech.getByRole("button", { name: "Fermer et terminer la session" }).click();
      await tech.getByText("Aucune session active.").waitFor();
      await customer.getByRole("button", { name: "Démarrer une session d'assistance" }).waitFor();
    }
  }
  console.log(`   ${summary(toFrame)}   (target ≤ 1000 ms)`);

  console.log(`2. control channel ping → pong, ${pings} in a row`);
  await tech
    .getByRole("status")
    .filter({ hasText: /Latence : \d+ ms/ })
    .waitFor();
  const roundTrips = await tech.evaluate(async (count) => {
    const channels = (window as unknown as { __channels?: RTCDataChannel[] }).__channels ?? [];
    const channel = channels.find((candidate) => candidate.label === "control" && candidate.readyState === "open");
    if (!channel) throw new Error("canal control introuvable");
    const samples: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const t = performance.now() + i / 1e6; // unique per ping, so each pong is matched to its own ping
      const pong = new Promise<void>((resolve) => {
        const listener = (event: MessageEvent) => {
          const message = JSON.parse(String(event.data)) as { type: string; t: number };
          if (message.type !== "pong" || message.t !== t) return;
          channel.removeEventListener("message", listener);
          samples.push(performance.now() - t);
          resolve();
        };
        channel.addEventListener("message", listener);
      });
      channel.send(JSON.stringify({ type: "ping", t }));
      await pong;
    }
    return samples;
  }, pings);
  console.log(`   ${summary(roundTrips)}   (target ≤ 5 ms)`);
} finally {
  await browser.close();
  await stop(server);
  await rm(dataDir, { recursive: true, force: true });
}
