/**
 * The visitor's e-mail address, as both request forms ask it (spec §5: required,
 * e-mail type; length from `LIMITS`). The shop answers to it, so no spell-checking.
 */
import { LIMITS } from "#app/requests/schemas.ts";
import { TextField, type FieldState } from "./text-field";

export function EmailField({ id, state }: { id: string; state: FieldState }) {
  return (
    <TextField
      id={id}
      label="Adresse e-mail"
      name="email"
      type="email"
      autoComplete="email"
      spellCheck={false}
      maxLength={LIMITS.email}
      state={state}
    />
  );
}
