/**
 * Issue 40, mail honesty on the customer's side: whether the site really e-mails customers (SMTP or the
 * e-mail API configured: the server's `MailService.configured`). Without either, mails are only written as
 * files on the server, so the booking pages promise no mail and tell the customer to keep their page's
 * link instead, which is then the only way back to their appointment.
 */
import { useContext } from "react";
import { UNSAFE_DataRouterDataContext } from "react-router";
import { sharedContext } from "#app/utils/server-context.ts";

/** Set by the server for every request it renders (`server/app.ts`, from its mail service). */
export const mailConfiguredContext = sharedContext<boolean>("mail-configured");

/**
 * The root loader's `mailConfigured`: true when the server set none (a pre-rendered page) and outside a
 * data router (component tests), so that nothing changes where the server said nothing.
 */
export function useCustomerMail(): boolean {
  const state = useContext(UNSAFE_DataRouterDataContext);
  const data = state?.loaderData.root as { mailConfigured?: boolean } | undefined;
  return data?.mailConfigured ?? true;
}
