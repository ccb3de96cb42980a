/**
 * The anti-spam honeypot of the request forms (issue 4): a text field named
 * `HONEYPOT_FIELD` that people never see nor reach, and that many robots
 * fill in. The server refuses a submission where it is not empty.
 */
import { useId } from "react";
import { HONEYPOT_FIELD } from "#app/requests/schemas.ts";

/**
 * Off-screen rather than `display: none` (which robots skip), hidden from
 * assistive technologies (`aria-hidden` wrapper), out of the tab order and
 * of autofill; its label still says what to do, for anyone who lands on it.
 */
export function Honeypot() {
  const id = useId();
  return (
    <div aria-hidden="true" className="pointer-events-none absolute -left-[10000px] top-0 size-px overflow-hidden">
      <label htmlFor={id}>Ne remplissez pas ce champ</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
