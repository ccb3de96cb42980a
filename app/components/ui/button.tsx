/**
 * Buttons and button-styled links (shadcn/ui pattern: cva variants + `cn`).
 * `ButtonLink` renders a React Router `<Link>` for in-app paths and a plain
 * `<a>` for tel:, mailto:, http(s) and same-page (#…) targets.
 */
import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { Link } from "react-router";
import { cn } from "#app/utils/cn.ts";

export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300 disabled:cursor-not-allowed disabled:opacity-60",
  {
    variants: {
      variant: {
        primary: "bg-sky-400 text-slate-950 hover:bg-sky-300",
        secondary: "border border-slate-500 bg-slate-900/60 text-slate-50 hover:border-sky-300 hover:text-sky-200",
        ghost: "text-slate-100 hover:bg-slate-800",
      },
      size: {
        md: "min-h-11 px-5 py-2.5 text-base",
        lg: "min-h-12 px-7 py-3 text-lg",
        icon: "size-11",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

type Variants = VariantProps<typeof buttonVariants>;

export function Button({ className, variant, size, ...props }: ComponentProps<"button"> & Variants) {
  return <button className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}

const isExternal = (to: string) => /^(https?:|tel:|mailto:|#)/.test(to);

export function ButtonLink({
  to,
  className,
  variant,
  size,
  ...props
}: Omit<ComponentProps<"a">, "href"> & Variants & { to: string }) {
  const classes = cn(buttonVariants({ variant, size }), className);
  return isExternal(to) ? (
    <a href={to} className={classes} {...props} />
  ) : (
    <Link to={to} className={classes} {...props} />
  );
}
