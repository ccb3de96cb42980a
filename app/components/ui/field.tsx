/**
 * Form primitives (shadcn/ui pattern: cva variants + `cn`) for the contact
 * and quote forms (spec §3, §5): labels, text controls, field messages and
 * the live regions that announce a submission's result.
 *
 * `FormField` ties a label, an optional hint and an error to its control
 * (`htmlFor`, `aria-describedby`, `aria-invalid`), so each form only lists
 * its fields.
 */
import { cva, type VariantProps } from "class-variance-authority";
import { CircleAlert, CircleCheck } from "lucide-react";
import type { ComponentProps, ReactNode, Ref } from "react";
import { cn } from "#app/utils/cn.ts";

/** Inputs, textareas and selects share one look; `invalid` outlines a field with an error. */
export const controlVariants = cva(
  "block w-full min-h-11 rounded-lg border bg-slate-950/80 px-4 py-2.5 text-base text-slate-50 placeholder:text-slate-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300 disabled:cursor-not-allowed disabled:opacity-60",
  {
    variants: {
      invalid: {
        true: "border-rose-400 hover:border-rose-300",
        false: "border-slate-500 hover:border-slate-400",
      },
    },
    defaultVariants: { invalid: false },
  },
);

type ControlVariants = VariantProps<typeof controlVariants>;

/** A field's label; `required` adds an asterisk explained by `RequiredFieldsNote` (the control carries `required`). */
export function Label({ className, required, children, ...props }: ComponentProps<"label"> & { required?: boolean }) {
  return (
    <label className={cn("text-base font-medium text-slate-100", className)} {...props}>
      {children}
      {required ? (
        // Screen readers already announce the control's `required`; the asterisk is for sighted visitors.
        <span aria-hidden="true" className="ml-1 text-rose-300">
          *
        </span>
      ) : null}
    </label>
  );
}

/** The sentence that explains the asterisk, once per form. */
export function RequiredFieldsNote({ className }: { className?: string }) {
  return (
    <p className={cn("text-sm text-slate-300", className)}>
      Les champs marqués d'un astérisque (<span className="text-rose-300">*</span>) sont obligatoires.
    </p>
  );
}

export function Input({ className, invalid, ...props }: ComponentProps<"input"> & ControlVariants) {
  return <input className={cn(controlVariants({ invalid }), className)} {...props} />;
}

export function Textarea({ className, invalid, ...props }: ComponentProps<"textarea"> & ControlVariants) {
  return <textarea className={cn(controlVariants({ invalid }), "min-h-32 resize-y", className)} {...props} />;
}

export function Select({ className, invalid, ...props }: ComponentProps<"select"> & ControlVariants) {
  return <select className={cn(controlVariants({ invalid }), "cursor-pointer", className)} {...props} />;
}

/** Help text under a field (referenced by the control's `aria-describedby`). */
export function FieldHint({ className, ...props }: ComponentProps<"p">) {
  return <p className={cn("text-sm text-slate-300", className)} {...props} />;
}

/** A field's error, under it (referenced by the control's `aria-describedby`). */
export function FieldError({ className, children, ...props }: ComponentProps<"p">) {
  return (
    <p className={cn("flex items-start gap-2 text-sm font-medium text-rose-300", className)} {...props}>
      <CircleAlert aria-hidden="true" className="mt-px size-4 shrink-0" />
      <span>{children}</span>
    </p>
  );
}

/** The attributes `FormField` hands to its control. */
export type FieldControlProps = {
  id: string;
  required?: boolean;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  invalid: boolean;
};

type FormFieldProps = {
  id: string;
  label: ReactNode;
  required?: boolean;
  hint?: ReactNode;
  error?: string;
  /** Ids of other elements that describe the control (e.g. an input group's ".com" suffix), read first. */
  describedBy?: string;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
};

/** Label, control (rendered by `children`), hint and error, wired together for assistive technologies. */
export function FormField({ id, label, required, hint, error, describedBy, className, children }: FormFieldProps) {
  const hintId = hint ? `${id}-aide` : undefined;
  const errorId = error ? `${id}-erreur` : undefined;
  const descriptions = [describedBy, hintId, errorId].filter(Boolean).join(" ");
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <Label htmlFor={id} required={required}>
        {label}
      </Label>
      {children({
        id,
        required,
        invalid: Boolean(error),
        ...(error ? { "aria-invalid": true as const } : {}),
        ...(descriptions ? { "aria-describedby": descriptions } : {}),
      })}
      {hint ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}

export const formStatusVariants = cva("flex items-start gap-3 rounded-xl border px-4 py-3 text-base", {
  variants: {
    tone: {
      success: "border-emerald-400/60 bg-emerald-950/70 text-emerald-50",
      error: "border-rose-400/70 bg-rose-950/70 text-rose-50",
    },
  },
});

type FormStatusProps = {
  tone: "success" | "error";
  /** Nothing to announce yet: the live region stays in the page, empty, so later messages are announced. */
  children?: ReactNode;
  ref?: Ref<HTMLDivElement>;
  className?: string;
};

/**
 * A live region for a submission's result: `role="status"` (polite) for a
 * success, `role="alert"` for an error. It is always rendered, empty while
 * there is nothing to say, because screen readers may miss a message whose
 * region appears together with it. Focusable (`tabIndex={-1}`) so a form can
 * move focus to it when the focused control disappears.
 */
export function FormStatus({ tone, children, ref, className }: FormStatusProps) {
  const Icon = tone === "success" ? CircleCheck : CircleAlert;
  return (
    // Issue 30: on an islands page, the `form` enhancer empties `data-form-result` regions when the visitor types
    // again (contact form), and focuses a message rendered after a post (`data-focus-on-load`).
    <div
      ref={ref}
      role={tone === "success" ? "status" : "alert"}
      tabIndex={-1}
      data-form-result=""
      data-focus-on-load={children ? "" : undefined}
      className={cn(
        "rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300",
        className,
      )}
    >
      {children ? (
        <div className={formStatusVariants({ tone })}>
          <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          <div className="flex flex-col gap-1">{children}</div>
        </div>
      ) : null}
    </div>
  );
}
