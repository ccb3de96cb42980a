/**
 * One required text field of a request form (spec §5; issue 14: the blocks
 * `ContactForm` and `QuoteForm` used to repeat): `FormField`'s label, hint
 * and error wiring around an `Input`, or a `Textarea` when `rows` is given.
 *
 * The control's attributes are always written in the same order (name, type,
 * autocomplete, autocapitalize, spellcheck, maxlength, value), whatever order
 * the caller passes them in, so the pre-rendered HTML does not depend on the call.
 */
import type { ReactNode } from "react";
import { FormField, Input, Textarea } from "#app/components/ui/field.tsx";
import type { FieldErrors } from "#app/requests/schemas.ts";

/** What a form knows about all its fields: the server's errors and the values to fill in again. */
export type FieldState = {
  /** The server's message for each invalid field, shown under it. */
  errors: FieldErrors;
  /** The values typed before a JavaScript-free POST that stored nothing. */
  values?: Record<string, string>;
};

type TextFieldProps = {
  id: string;
  label: string;
  /** The posted field's name (a key of `ContactInput` or `QuoteInput`); picks its error and value in `state`. */
  name: string;
  /** From `LIMITS`, the same bound the server checks. */
  maxLength: number;
  state: FieldState;
  hint?: string;
  /** Ids of other elements that describe the control, read before the hint (e.g. the `suffix`). */
  describedBy?: string;
  className?: string;
  /** Makes the field a multi-line `Textarea` of this height (in lines); `type` and the rest then do not apply. */
  rows?: number;
  type?: "text" | "email" | "tel";
  autoComplete?: string;
  autoCapitalize?: string;
  spellCheck?: boolean;
  /** Shown right after the input, joined to it (an input group, e.g. the ".com" after a domain name). */
  suffix?: ReactNode;
};

/** A required field whose control is an `Input` (default `type="text"`, optionally with a `suffix`) or, with `rows`, a `Textarea`. */
export function TextField(props: TextFieldProps) {
  const { id, label, name, state, hint, describedBy, className } = props;
  return (
    <FormField
      id={id}
      label={label}
      required
      hint={hint}
      describedBy={describedBy}
      error={state.errors[name]}
      className={className}
    >
      {(control) => {
        const defaultValue = state.values?.[name];
        if (props.rows !== undefined) {
          return (
            <Textarea
              {...control}
              name={name}
              rows={props.rows}
              maxLength={props.maxLength}
              defaultValue={defaultValue}
            />
          );
        }
        const input = (
          <Input
            {...control}
            name={name}
            type={props.type ?? "text"}
            autoComplete={props.autoComplete}
            autoCapitalize={props.autoCapitalize}
            spellCheck={props.spellCheck}
            maxLength={props.maxLength}
            defaultValue={defaultValue}
            className={props.suffix ? "min-w-0 rounded-r-none" : undefined}
          />
        );
        return props.suffix ? (
          <div className="flex">
            {input}
            {props.suffix}
          </div>
        ) : (
          input
        );
      }}
    </FormField>
  );
}
