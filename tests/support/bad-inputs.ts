/**
 * Hostile inputs for every public endpoint (issue 13 §7), shared by the test
 * `server/bad-inputs.test.ts` (asserts: no 5xx, nothing stored) and the
 * benchmark `bench/bad-inputs.ts` (prints "N bad inputs tried, M answers 5xx"
 * against the production build).
 *
 * Each target is an endpoint with a valid body; `badInputs()` derives from it
 * every attempt: each field replaced by text with a NUL, a lone surrogate, a
 * control character, raw bytes that are not UTF-8, a huge number, null, an
 * object or an array; then whole bodies that are JSON arrays, numbers, null,
 * deeply nested, truncated or not JSON, under wrong content types, as
 * URL-encoded forms with %00 / %FF / an encoded surrogate, and as multipart
 * bodies that are truncated, without boundary, or carrying the same bytes.
 */

/** Who sends the request: nobody signed in, the customer (who has a connected session), or the technician who joined it. */
export type BadInputCaller = "anonymous" | "customer" | "technician";

export type BadInputTarget = {
  name: string;
  /** POST unless said. */
  method?: "POST" | "PUT";
  /** `:code` is replaced by the connected session's code, `:message` by an answer of the customer's assistant conversation. */
  path: string;
  caller: BadInputCaller;
  /** A valid body (as strings): the attempts corrupt it. */
  valid: Record<string, string>;
};

export type BadInput = {
  target: string;
  /** What was sent, in words (for failure messages and the bench). */
  input: string;
  method: "POST" | "PUT";
  path: string;
  caller: BadInputCaller;
  /** Content-Type, or none. */
  contentType?: string;
  /** The exact bytes (a plain Uint8Array: `fetch` and `Request` take it as is). */
  body: Uint8Array<ArrayBuffer>;
};

const QUOTE = {
  companyName: "Boulangerie Martin",
  contactName: "Léa Martin",
  email: "lea@exemple.fr",
  phone: "01 23 45 67 89",
  description: "Un site vitrine pour la boulangerie.",
  domain: "boulangerie-martin",
  emailOption: "mail-5",
  budget: "2 000 €",
};

/** Every public endpoint that takes a body. */
export const BAD_INPUT_TARGETS: BadInputTarget[] = [
  {
    name: "POST /api/contact",
    path: "/api/contact",
    caller: "anonymous",
    valid: { name: "Léa Martin", email: "lea@exemple.fr", message: "Bonjour, mon écran est cassé." },
  },
  { name: "POST /api/quote", path: "/api/quote", caller: "anonymous", valid: QUOTE },
  {
    name: "POST /contact (page action)",
    path: "/contact",
    caller: "anonymous",
    valid: { name: "Léa Martin", email: "lea@exemple.fr", message: "Bonjour, mon écran est cassé." },
  },
  { name: "POST /dev-web (page action)", path: "/dev-web", caller: "anonymous", valid: QUOTE },
  {
    name: "POST /soft-assist (page action, sign-in form)",
    path: "/soft-assist",
    caller: "anonymous",
    valid: { intent: "sign-in", email: "personne@exemple.fr", password: "mot-de-passe-long" },
  },
  {
    name: "POST /api/auth/sign-up/email",
    path: "/api/auth/sign-up/email",
    caller: "anonymous",
    valid: { name: "Paul Durand", email: "nouveau@exemple.fr", password: "mot-de-passe-long" },
  },
  {
    name: "POST /api/auth/sign-in/email",
    path: "/api/auth/sign-in/email",
    caller: "anonymous",
    valid: { email: "personne@exemple.fr", password: "mot-de-passe-long" },
  },
  {
    name: "POST /api/auth/update-user",
    path: "/api/auth/update-user",
    caller: "customer",
    valid: { name: "Léa Martin" },
  },
  {
    name: "POST /api/auth/request-password-reset",
    path: "/api/auth/request-password-reset",
    caller: "anonymous",
    valid: { email: "personne@exemple.fr", redirectTo: "/soft-assist/nouveau-mot-de-passe" },
  },
  {
    name: "POST /api/assistant/messages",
    path: "/api/assistant/messages",
    caller: "customer",
    valid: { content: "Quel est le prix d'un écran d'iPhone 12 ?" },
  },
  {
    name: "PUT /api/assistant/messages/:message/rating",
    method: "PUT",
    path: "/api/assistant/messages/:message/rating",
    caller: "customer",
    valid: { rating: "not-useful", comment: "Le prix annoncé est faux." },
  },
  { name: "POST /api/sessions", path: "/api/sessions", caller: "customer", valid: { code: "ABCDEF" } },
  { name: "POST /api/sessions/join", path: "/api/sessions/join", caller: "technician", valid: { code: "ABCDEF" } },
  {
    name: "POST /api/sessions/:code/events",
    path: "/api/sessions/:code/events",
    caller: "customer",
    valid: { kind: "chat", text: "Bonjour" },
  },
  {
    name: "POST /api/reports/verify",
    path: "/api/reports/verify",
    caller: "technician",
    valid: { password: "mauvais-mot-de-passe" },
  },
];

/** Field values, as JSON text (so a lone surrogate and huge numbers survive as sent) or raw bytes. */
const FIELD_VALUES: { input: string; json: Buffer }[] = [
  { input: "NUL", json: Buffer.from('"L\\u0000a"') },
  { input: "NUL (raw byte)", json: Buffer.from('"L\u0000a"') },
  { input: "lone high surrogate", json: Buffer.from('"L\\ud800a"') },
  { input: "lone low surrogate", json: Buffer.from('"\\udc00"') },
  { input: "bell control character", json: Buffer.from('"L\\u0007a"') },
  { input: "escape control character", json: Buffer.from('"\\u001b[31m"') },
  {
    input: "invalid UTF-8 bytes",
    json: Buffer.concat([Buffer.from('"L'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('a"')]),
  },
  {
    input: "UTF-8-encoded surrogate (ED A0 80)",
    json: Buffer.concat([Buffer.from('"L'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"')]),
  },
  { input: "huge number", json: Buffer.from("1e999") },
  { input: "huge integer", json: Buffer.from("123456789012345678901234567890123456789") },
  { input: "negative zero", json: Buffer.from("-0") },
  { input: "null", json: Buffer.from("null") },
  { input: "true", json: Buffer.from("true") },
  { input: "object", json: Buffer.from('{"$ne":""}') },
  { input: "array", json: Buffer.from('["a","b"]') },
];

/** `valid` as a JSON object with `field`'s value replaced by raw JSON bytes. */
function jsonWith(valid: Record<string, string>, field: string, value: Buffer): Buffer {
  const parts: Buffer[] = [Buffer.from("{")];
  Object.entries(valid).forEach(([name, text], index) => {
    if (index > 0) parts.push(Buffer.from(","));
    parts.push(Buffer.from(`${JSON.stringify(name)}:`), name === field ? value : Buffer.from(JSON.stringify(text)));
  });
  parts.push(Buffer.from("}"));
  return Buffer.concat(parts);
}

function urlEncoded(valid: Record<string, string>, field: string, encodedValue: string): Buffer {
  return Buffer.from(
    Object.entries(valid)
      .map(([name, text]) => `${encodeURIComponent(name)}=${name === field ? encodedValue : encodeURIComponent(text)}`)
      .join("&"),
  );
}

const BOUNDARY = "----atelierBoundary7MA4YWxk";
function multipart(valid: Record<string, string>, field: string, value: Buffer, { close = true } = {}): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of Object.entries(valid)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`));
    parts.push(name === field ? value : Buffer.from(text));
    parts.push(Buffer.from("\r\n"));
  }
  if (close) parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";
const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** Every attempt for every target (a few hundred). */
export function badInputs(targets: BadInputTarget[] = BAD_INPUT_TARGETS): BadInput[] {
  const attempts: BadInput[] = [];
  for (const target of targets) {
    const add = (input: string, body: Buffer | string, contentType?: string) =>
      attempts.push({
        target: target.name,
        input,
        method: target.method ?? "POST",
        path: target.path,
        caller: target.caller,
        contentType,
        body: new Uint8Array(Buffer.from(body)),
      });
    const fields = Object.keys(target.valid);
    const validJson = JSON.stringify(target.valid);

    for (const field of fields) {
      for (const value of FIELD_VALUES)
        add(`JSON, ${field}: ${value.input}`, jsonWith(target.valid, field, value.json), JSON_TYPE);
      add(`form, ${field}: %00`, urlEncoded(target.valid, field, "L%00a"), FORM_TYPE);
      add(`form, ${field}: %FF`, urlEncoded(target.valid, field, "L%FFa"), FORM_TYPE);
      add(`form, ${field}: encoded surrogate %ED%A0%80`, urlEncoded(target.valid, field, "L%ED%A0%80"), FORM_TYPE);
      add(`multipart, ${field}: NUL`, multipart(target.valid, field, Buffer.from("L\u0000a")), MULTIPART_TYPE);
      add(
        `multipart, ${field}: invalid UTF-8`,
        multipart(target.valid, field, Buffer.from([0x4c, 0xff, 0xed, 0xa0, 0x80])),
        MULTIPART_TYPE,
      );
    }

    add("JSON: empty array", "[]", JSON_TYPE);
    add("JSON: array of the valid object", `[${validJson}]`, JSON_TYPE);
    add("JSON: number", "42", JSON_TYPE);
    add("JSON: huge number", "1e999", JSON_TYPE);
    add("JSON: null", "null", JSON_TYPE);
    add("JSON: string", '"texte"', JSON_TYPE);
    add("JSON: true", "true", JSON_TYPE);
    add("JSON: nested 2 000 deep", `${"[".repeat(2000)}${"]".repeat(2000)}`, JSON_TYPE);
    add("JSON: nested objects 1 000 deep", `${'{"a":'.repeat(1000)}1${"}".repeat(1000)}`, JSON_TYPE);
    add("JSON: nested 100 000 deep (too large)", `${"[".repeat(100_000)}${"]".repeat(100_000)}`, JSON_TYPE);
    add("JSON: truncated", validJson.slice(0, validJson.length - 5), JSON_TYPE);
    add("JSON: not JSON", "ceci n'est pas du JSON", JSON_TYPE);
    add("JSON: empty body", "", JSON_TYPE);
    add(
      "JSON: invalid UTF-8 outside strings",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(validJson)]),
      JSON_TYPE,
    );
    add("JSON: __proto__ key", '{"__proto__":{"isTechnician":true},"isTechnician":true}', JSON_TYPE);
    add("JSON under charset latin1", validJson, `${JSON_TYPE}; charset=latin1`);
    add("JSON under charset unknown", validJson, `${JSON_TYPE}; charset=x-inconnu`);
    add("JSON sent as text/plain", validJson, "text/plain");
    add("JSON sent as application/xml", validJson, "application/xml");
    add("XML", "<?xml version='1.0'?><a>b</a>", "application/xml");
    add("JSON without content type", validJson);
    add("binary as octet-stream", Buffer.from([0, 1, 2, 255, 254, 0]), "application/octet-stream");
    add("content type garbage", validJson, ";;;===");
    add("form: empty", "", FORM_TYPE);
    add("form: only separators", "&&&===&", FORM_TYPE);
    add(
      "multipart: truncated",
      multipart(target.valid, "", Buffer.alloc(0), { close: false }).subarray(0, 60),
      MULTIPART_TYPE,
    );
    add(
      "multipart: no closing boundary",
      multipart(target.valid, "", Buffer.alloc(0), { close: false }),
      MULTIPART_TYPE,
    );
    add("multipart: no boundary parameter", multipart(target.valid, "", Buffer.alloc(0)), "multipart/form-data");
    add(
      "multipart: wrong boundary",
      multipart(target.valid, "", Buffer.alloc(0)),
      "multipart/form-data; boundary=autre",
    );
    add("multipart: garbage", "--x\r\n\r\n\u0000\u0000--", "multipart/form-data; boundary=x");
  }
  return attempts;
}
