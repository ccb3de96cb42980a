/**
 * Issue 40: a link the manager passes on by hand (the invitation's, when mail does not leave the server):
 * shown in a read-only field they can select, and « Copier le lien » puts it on the clipboard. The outcome
 * is announced (`role="status"`): « Lien copié », or, where the browser refuses the clipboard (no HTTPS,
 * permission denied), that the link is selected for Ctrl+C.
 */
import { useId, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Label } from "#app/components/ui/field.tsx";

export const COPIED_TEXT = "Lien copié";
export const COPY_FALLBACK_TEXT =
  "Copie automatique impossible : le lien est sélectionné, copiez-le avec Ctrl+C (⌘+C sur Mac).";

export function CopyLink({ link, label }: { link: string; label: string }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [said, setSaid] = useState("");

  async function copy() {
    setSaid("");
    try {
      // Absent outside a secure context (plain HTTP on the shop's network): the fallback below.
      if (!navigator.clipboard) throw new Error("presse-papiers indisponible");
      await navigator.clipboard.writeText(link);
      setSaid(COPIED_TEXT);
    } catch {
      field.current?.focus();
      field.current?.select();
      setSaid(COPY_FALLBACK_TEXT);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={`${id}-lien`}>{label}</Label>
      <div className="flex flex-wrap gap-2">
        <Input
          ref={field}
          id={`${id}-lien`}
          readOnly
          value={link}
          className="min-w-0 flex-1 font-mono text-sm"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button type="button" variant="secondary" onClick={() => void copy()}>
          Copier le lien
        </Button>
      </div>
      <p role="status" className="min-h-6 text-slate-100">
        {said}
      </p>
    </div>
  );
}
