/**
 * The /contact and /dev-web actions and their payload (issue 4; one submit
 * path since issue 14): fields are read as strings and handed to
 * `submitRequest` with the form's kind and the visitor's origin;
 * the answer carries the result, its French message and HTTP status, and the
 * values (minus the honeypot) only when nothing was stored; a client action
 * turns an unreachable server into the failure message.
 */
import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { action as contactAction, clientAction as contactClientAction } from "#app/routes/contact.tsx";
import { action as quoteAction, clientAction as quoteClientAction } from "#app/routes/dev-web.tsx";
import { HONEYPOT_FIELD, REQUEST_MESSAGES, type SubmissionResult } from "#app/requests/schemas.ts";
import { formServicesContext, requestOriginContext, type FormServices } from "#app/utils/server-context.ts";
import { formActionData, unreachableActionData } from "./action-data";
import { formFields } from "./submit.server";

function contextWith(services: FormServices) {
  const context = new RouterContextProvider();
  context.set(formServicesContext, services);
  context.set(requestOriginContext, { ip: "203.0.113.7" });
  return context;
}

function post(url: string, fields: Record<string, string>) {
  return new Request(`http://localhost${url}`, { method: "POST", body: new URLSearchParams(fields) });
}

/** The arguments React Router passes to an action (only `request` and `context` are read). */
function args<T>(request: Request, context: RouterContextProvider): T {
  return { request, context, params: {} } as unknown as T;
}

describe("formFields", () => {
  it("keeps string fields (the first of a repeated name) and drops files", () => {
    const formData = new FormData();
    formData.append("name", "Marie");
    formData.append("name", "Pierre");
    formData.append("piece", new Blob(["x"]), "x.txt");
    expect(formFields(formData)).toEqual({ name: "Marie" });
  });
});

describe("formActionData", () => {
  const fields = { name: "Marie", [HONEYPOT_FIELD]: "" };

  it("never echoes the values of a stored submission", () => {
    expect(formActionData("contact", { status: "stored", id: "1" }, fields)).toEqual({
      result: { status: "stored", id: "1" },
      message: REQUEST_MESSAGES.contactSuccess,
    });
  });

  it("echoes the values, minus the honeypot, when nothing was stored", () => {
    expect(formActionData("quote", { status: "failed" }, { ...fields, [HONEYPOT_FIELD]: "spam" })).toEqual({
      result: { status: "failed" },
      message: REQUEST_MESSAGES.quoteFailure,
      values: { name: "Marie" },
    });
  });

  it("has the failure message of each form for an unreachable server", () => {
    expect(unreachableActionData("contact").message).toBe(REQUEST_MESSAGES.contactFailure);
    expect(unreachableActionData("quote")).toEqual({
      result: { status: "failed" },
      message: REQUEST_MESSAGES.quoteFailure,
    });
  });
});

describe("route actions", () => {
  const services = (result: SubmissionResult) => ({ submitRequest: vi.fn(async () => result) });

  it("/contact hands the fields and origin to submitRequest as a contact and answers 201 with the success message", async () => {
    const fake = services({ status: "stored", id: "9" });
    const fields = { name: "Marie", email: "marie@example.fr", message: "Bonjour", [HONEYPOT_FIELD]: "" };
    const answer = await contactAction(args(post("/contact", fields), contextWith(fake)));
    expect(fake.submitRequest).toHaveBeenCalledExactlyOnceWith("contact", fields, { ip: "203.0.113.7" });
    expect(answer.init?.status).toBe(201);
    expect(answer.data).toEqual({ result: { status: "stored", id: "9" }, message: REQUEST_MESSAGES.contactSuccess });
  });

  it("/dev-web hands the fields to submitRequest as a quote and answers 400 with the field errors and the values", async () => {
    const fake = services({ status: "invalid", fieldErrors: { email: "Adresse invalide." } });
    const answer = await quoteAction(
      args(post("/dev-web", { email: "paul@", [HONEYPOT_FIELD]: "" }), contextWith(fake)),
    );
    expect(fake.submitRequest).toHaveBeenCalledExactlyOnceWith(
      "quote",
      { email: "paul@", [HONEYPOT_FIELD]: "" },
      { ip: "203.0.113.7" },
    );
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toEqual({
      result: { status: "invalid", fieldErrors: { email: "Adresse invalide." } },
      message: REQUEST_MESSAGES.invalid,
      values: { email: "paul@" },
    });
  });

  it("answers 503 with the failure message when storing failed, and 429 when rate-limited", async () => {
    const failed = await quoteAction(args(post("/dev-web", {}), contextWith(services({ status: "failed" }))));
    expect(failed.init?.status).toBe(503);
    expect(failed.data.message).toBe(REQUEST_MESSAGES.quoteFailure);
    const limited = await contactAction(
      args(post("/contact", {}), contextWith(services({ status: "rate-limited", retryAfterSeconds: 30 }))),
    );
    expect(limited.init?.status).toBe(429);
    expect(limited.data.message).toMatch(/^Trop de demandes/);
  });

  it("answers a body that is not a form with a French 415 or 400, never reaching the services (issue 13 §7)", async () => {
    const fake = services({ status: "stored", id: "1" });
    const json = new Request("http://localhost/contact", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Marie" }),
    });
    const asJson = await contactAction(args(json, contextWith(fake)));
    expect(asJson.init?.status).toBe(415);
    expect(asJson.data.message).toBe(REQUEST_MESSAGES.badFormContentType);
    const broken = new Request("http://localhost/dev-web", {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x" },
      body: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\npaul@',
    });
    const asBroken = await quoteAction(args(broken, contextWith(fake)));
    expect(asBroken.init?.status).toBe(400);
    expect(asBroken.data).toEqual({
      result: { status: "invalid", fieldErrors: { _form: REQUEST_MESSAGES.unreadableForm } },
      message: REQUEST_MESSAGES.unreadableForm,
      values: {},
    });
    expect(fake.submitRequest).not.toHaveBeenCalled();
  });

  it("throws when the server did not provide the form services (a wiring bug)", async () => {
    await expect(contactAction(args(post("/contact", {}), new RouterContextProvider()))).rejects.toThrow();
  });
});

describe("client actions", () => {
  function clientArgs<T>(serverAction: () => Promise<unknown>): T {
    return { serverAction } as unknown as T;
  }

  it("pass the server's answer through", async () => {
    const data = formActionData("contact", { status: "stored", id: "1" }, {});
    await expect(contactClientAction(clientArgs(async () => data))).resolves.toBe(data);
  });

  it("turn an unreachable server or an error page into the form's failure message", async () => {
    const offline = () => Promise.reject(new TypeError("Failed to fetch"));
    await expect(contactClientAction(clientArgs(offline))).resolves.toEqual(unreachableActionData("contact"));
    await expect(quoteClientAction(clientArgs(offline))).resolves.toEqual(unreachableActionData("quote"));
  });
});
