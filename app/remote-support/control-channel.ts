/**
 * Issue 6, the data channel `control` (spec §7 "Peer-to-peer": ordered,
 * maxRetransmits 3), JSON text messages, validated on receipt by both sides:
 * - `ping` / `pong` (`t`: the sender's `performance.now()`, ms, echoed back):
 *   the technician pings every `PING_INTERVAL_MS` and shows the round trip;
 * - `mousemove` (`x`, `y`: fractions 0–1 of the shared picture, letterboxing
 *   excluded), `mousedown` / `mouseup` (`button`: `MouseEvent.button`),
 *   `keydown` / `keyup` (`KeyboardEvent.key` and `.code`): technician →
 *   customer, only while the input toggle is on;
 * - `control` (`enabled`): the technician's toggle, so the customer sees it;
 * - `chat`: a message of either side (also stored by the server).
 * Moved out of `protocol.ts` when issue 38 §4 brought that module past 400 lines.
 */
import { z } from "zod";
import { CHAT_MAX_CHARS } from "./protocol.ts";

export const CONTROL_CHANNEL_LABEL = "control";
export const CONTROL_CHANNEL_OPTIONS = { ordered: true, maxRetransmits: 3 } as const;
/** Spec §9: data channel ping every 5 seconds. */
export const PING_INTERVAL_MS = 5_000;

const Fraction = z.number().min(0).max(1);
const KeyName = z.string().max(64);
export const ControlMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping"), t: z.number() }),
  z.object({ type: z.literal("pong"), t: z.number() }),
  z.object({ type: z.literal("mousemove"), x: Fraction, y: Fraction }),
  z.object({ type: z.enum(["mousedown", "mouseup"]), button: z.number().int().min(0).max(4) }),
  z.object({ type: z.enum(["keydown", "keyup"]), key: KeyName, code: KeyName }),
  z.object({ type: z.literal("control"), enabled: z.boolean() }),
  z.object({ type: z.literal("chat"), text: z.string().min(1).max(CHAT_MAX_CHARS) }),
]);
export type ControlMessage = z.infer<typeof ControlMessage>;

/** Parses one data-channel message (JSON text); null when it is not a valid `ControlMessage`. */
export function parseControlMessage(raw: unknown): ControlMessage | null {
  if (typeof raw !== "string" || raw.length > 4 * CHAT_MAX_CHARS) return null;
  try {
    const checked = ControlMessage.safeParse(JSON.parse(raw));
    return checked.success ? checked.data : null;
  } catch {
    return null;
  }
}
