/**
 * The server's check of a reply's prices (issue 7 "Grounding"): every euro
 * amount the model writes must be one a catalogue lookup of the
 * conversation returned (or the technician's hourly rate); any other is
 * replaced by an invitation to ask for a quote, before it reaches the
 * customer. Works on a stream: text is held back only while it could still
 * be the start of an amount.
 */
import { ASSISTANT_MESSAGES } from "#app/assistant/protocol.ts";

/** "89 €", "1 299,00 €", "3,99 €", "129 euros", "à partir de 49 €", "80 EUR" (groups: whole euros, cents). */
const AMOUNT = /(?:à partir de\s+)?(\d{1,3}(?:[ \u00a0\u202f.]\d{3})+|\d+)(?:[,.](\d{1,2}))?\s?(?:€|euros?\b|EUR\b)/gi;
/** A number (with thousands separators) at the very end of the text, which a currency may still follow. */
const TRAILING_NUMBER = /\d[\d \u00a0\u202f.,]*$/;
/** Longest stretch after a number's first digit that may still complete it into an amount ("1 299,00 euros"). */
const HOLD_CHARS = 24;

const PREFIX = "à partir de ";

/** Where a trailing (possibly partial) "à partir de " starts in `text`, or `text.length`. */
function partialPrefixStart(text: string): number {
  const lower = text.toLowerCase();
  for (let length = Math.min(PREFIX.length, lower.length); length > 0; length--) {
    if (lower.endsWith(PREFIX.slice(0, length))) return text.length - length;
  }
  return text.length;
}

/** Euros of an amount as written ("1 299,00" → 1299, "3,99" → 3.99). */
function euros(amount: string, cents: string | undefined): number {
  const whole = Number(amount.replace(/[ \u00a0\u202f.]/g, ""));
  return cents ? Math.round(whole * 100 + Number(cents.padEnd(2, "0"))) / 100 : whole;
}

/** The euro amounts written in `text` (€, cents kept: 3.99). */
export function amountsIn(text: string): number[] {
  return [...text.matchAll(AMOUNT)].map((match) => euros(match[1]!, match[2]));
}

export class PriceGuard {
  private buffer = "";
  private readonly allowed: ReadonlySet<number>;
  /** Amounts replaced so far. */
  readonly replaced: number[] = [];

  /** `allowed`: the amounts (€) the conversation's lookups and the shop's facts give (may grow while streaming). */
  constructor(allowed: ReadonlySet<number>) {
    this.allowed = allowed;
  }

  /** Adds streamed text; returns what can be shown now. */
  push(text: string): string {
    this.buffer += text;
    return this.release(false);
  }

  /** The rest, at the end of the reply. */
  flush(): string {
    return this.release(true);
  }

  /** Checks a whole text at once. */
  check(text: string): string {
    return this.push(text) + this.flush();
  }

  private release(final: boolean): string {
    let cut = this.buffer.length;
    if (!final) {
      const window = this.buffer.length - HOLD_CHARS;
      const digit = this.buffer.slice(Math.max(0, window)).search(/\d/);
      if (digit !== -1) {
        cut = Math.max(0, window) + digit;
        // Back to the start of the number the held digit belongs to ("1 299" is not cut after "1 ").
        const before = TRAILING_NUMBER.exec(this.buffer.slice(0, cut));
        if (before) cut = before.index;
        // And the "à partir de " in front of it, replaced with it.
        const prefix = /à partir de\s+$/i.exec(this.buffer.slice(0, cut));
        if (prefix) cut = prefix.index;
      }
      // A trailing "à partir d…" may still be followed by an amount: it waits too.
      cut = Math.min(cut, partialPrefixStart(this.buffer));
    }
    const out = this.buffer.slice(0, cut);
    this.buffer = this.buffer.slice(cut);
    return out.replace(AMOUNT, (match, amount: string, cents: string | undefined) => {
      const value = euros(amount, cents);
      if (this.allowed.has(value)) return match;
      this.replaced.push(value);
      return ASSISTANT_MESSAGES.unsupportedPrice;
    });
  }
}
