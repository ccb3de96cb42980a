/**
 * Issue 40, on a ticket's panel in the dashboard: « État au dépôt » and
 * « Accessoires laissés » filled in or corrected by staff (a ticket opened
 * from an appointment in one click starts without them). A button opens a
 * small form with both fields as they are; « Enregistrer » sends both
 * (`POST /api/repairs/:id/drop-off`, a blank field clears it), and the panel
 * then shows the server's answer. The server's French refusals are shown by
 * their field. Focus: the first field when the form opens, back on the
 * button when it closes; the outcome is a `role="status"` line.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { FormField, Input, Textarea } from "#app/components/ui/field.tsx";
import { REPAIR_LIMITS, type StaffRepairTicket } from "./protocol.ts";
import { saveRepairDropOff } from "./repairs-client.ts";

type Props = {
  ticket: StaffRepairTicket;
  /** The ticket as the server answered after the save. */
  onSaved: (ticket: StaffRepairTicket) => void;
};

type Refusal = { message: string; fields: Partial<Record<string, string>> };
const noRefusal: Refusal = { message: "", fields: {} };

/** The toggle, the form and the outcome line; see the module comment. */
export function DropOffForm({ ticket, onSaved }: Props) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal>(noRefusal);
  const [notice, setNotice] = useState("");
  const toggle = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLTextAreaElement>(null);
  // The focus moves only after the technician's own click, never when the panel first shows.
  const moved = useRef(false);

  useEffect(() => {
    if (!moved.current) return;
    (editing ? first : toggle).current?.focus();
  }, [editing]);

  function setOpen(open: boolean) {
    moved.current = true;
    setRefusal(noRefusal);
    if (open) setNotice("");
    setEditing(open);
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = new FormData(event.currentTarget);
    const text = (name: string) => String(fields.get(name) ?? "");
    setBusy(true);
    setRefusal(noRefusal);
    const result = await saveRepairDropOff(ticket.id, {
      conditionNotes: text("conditionNotes"),
      accessories: text("accessories"),
    });
    setBusy(false);
    if (!result.ok) return setRefusal({ message: result.message, fields: result.fieldErrors });
    onSaved(result.data.ticket);
    setOpen(false);
    setNotice("État au dépôt et accessoires enregistrés.");
  }

  return (
    <div className="flex flex-col gap-3">
      <div>
        <Button
          ref={toggle}
          type="button"
          variant="secondary"
          aria-expanded={editing}
          aria-controls={editing ? `${id}-form` : undefined}
          onClick={() => setOpen(!editing)}
        >
          Modifier l'état au dépôt et les accessoires
        </Button>
      </div>
      {editing ? (
        <form
          id={`${id}-form`}
          onSubmit={save}
          aria-label="État au dépôt et accessoires"
          className="flex flex-col gap-3"
          noValidate
        >
          <FormField id={`${id}-etat`} label="État au dépôt" error={refusal.fields.conditionNotes}>
            {(control) => (
              <Textarea
                {...control}
                ref={first}
                name="conditionNotes"
                rows={2}
                maxLength={REPAIR_LIMITS.conditionNotes}
                defaultValue={ticket.conditionNotes ?? ""}
              />
            )}
          </FormField>
          <FormField id={`${id}-accessoires`} label="Accessoires laissés" error={refusal.fields.accessories}>
            {(control) => (
              <Input
                {...control}
                name="accessories"
                maxLength={REPAIR_LIMITS.accessories}
                defaultValue={ticket.accessories ?? ""}
              />
            )}
          </FormField>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={busy}>
              Enregistrer
            </Button>
            <Button type="button" variant="secondary" disabled={busy} onClick={() => setOpen(false)}>
              Annuler
            </Button>
          </div>
          <p role="alert" className="font-medium text-red-300">
            {refusal.message}
          </p>
        </form>
      ) : null}
      <p role="status" className="text-emerald-200">
        {notice}
      </p>
    </div>
  );
}
