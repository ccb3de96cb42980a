/**
 * A modal dialog on the native `<dialog>` element with `showModal()`: the
 * browser makes the rest of the page inert, traps focus and closes on Escape,
 * which a hand-made overlay would have to imitate (WCAG 2.1.2, 2.4.3).
 * Focus goes back to whatever opened it.
 */
import { X } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { cn } from "#app/utils/cn.ts";

type Props = {
  open: boolean;
  /** Escape, the close button, or the caller's own buttons. */
  onClose: () => void;
  title: string;
  /** Changes when the content is replaced in place (verification → report), to move focus to the new heading. */
  stepKey?: string;
  children: ReactNode;
  className?: string;
};

export function Modal({ open, onClose, title, stepKey, children, className }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
    if (!open && opener.current instanceof HTMLElement && opener.current.isConnected) {
      opener.current.focus();
      opener.current = null;
    }
  }, [open]);

  useEffect(() => {
    // Opened, or same dialog with a new step: the field marked `data-autofocus` takes focus, else the heading
    // (showModal alone would pick the first focusable element, the close button).
    if (!open) return;
    const dialog = ref.current;
    const autofocus = dialog?.querySelector<HTMLElement>("[data-autofocus]");
    (autofocus ?? headingRef.current)?.focus();
  }, [open, stepKey]);

  return (
    <dialog
      ref={ref}
      aria-labelledby="modal-titre"
      onClose={() => {
        if (open) onClose();
      }}
      className={cn(
        "m-auto w-[calc(100%-2rem)] max-w-lg rounded-2xl border border-slate-600 bg-slate-900 p-0 text-slate-100 shadow-2xl backdrop:bg-slate-950/80",
        className,
      )}
    >
      {open ? (
        <div className="flex flex-col gap-5 p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id="modal-titre" ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-white outline-none">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              aria-label="Fermer"
              className="-mt-2 -mr-2 inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-slate-200 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
