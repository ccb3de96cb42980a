/**
 * The visitor's e-mail address, as both request forms ask it (spec §5: required,
 * e-mail type; length from `LIMITS`). The shop answers to it, so no spell-checking.
 */
import { FormField, Input } from "~/components/ui/field";
import { LIMITS } from "~/requests/schemas";

export function EmailField({ id, error, defaultValue }: { id: string; error?: string; defaultValue?: string }) {
  return (
    <FormField id={id} label="Adresse e-mail" required error={error}>
      {(control) => (
        <Input
          {...control}
          name="email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          maxLength={LIMITS.email}
          defaultValue={defaultValue}
        />
      )}
    </FormField>
  );
}
