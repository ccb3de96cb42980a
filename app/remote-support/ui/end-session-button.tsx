/**
 * Issue 40, « « Fermer et terminer la session » ends the session at once: ask to confirm »: the remote view's
 * button opens a confirmation; only « Terminer la session » there ends it (the customer loses the technician's
 * access and the session goes to the history). « Annuler » or Échap leaves everything as it was.
 */
import { X } from "lucide-react";
import { useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Modal } from "./modal";

/** The French words of the button and its confirmation. */
export const END_SESSION_TEXTS = {
  button: "Fermer et terminer la session",
  ending: "Déconnexion...",
  title: "Terminer la session ?",
  text:
    "Le client sera déconnecté : vous ne verrez plus son écran et ne pourrez plus agir sur son ordinateur. " +
    "La session passera dans l'historique, avec son rapport.",
  confirm: "Terminer la session",
  cancel: "Annuler",
} as const;

/** `onEnd` runs only once confirmed; `ending`: the end is under way (the button waits). */
export function EndSessionButton({ onEnd, ending }: { onEnd: () => void; ending: boolean }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button type="button" variant="secondary" onClick={() => setConfirming(true)} disabled={ending}>
        <X aria-hidden="true" className="size-5" />
        {ending ? END_SESSION_TEXTS.ending : END_SESSION_TEXTS.button}
      </Button>
      <Modal open={confirming} onClose={() => setConfirming(false)} title={END_SESSION_TEXTS.title}>
        <p className="text-slate-200">{END_SESSION_TEXTS.text}</p>
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => setConfirming(false)} data-autofocus>
            {END_SESSION_TEXTS.cancel}
          </Button>
          <Button
            type="button"
            onClick={() => {
              setConfirming(false);
              onEnd();
            }}
          >
            {END_SESSION_TEXTS.confirm}
          </Button>
        </div>
      </Modal>
    </>
  );
}
