/**
 * HTML invoker commands (`<button commandfor="id" command="show-modal">`): a button opens a
 * `<dialog>` natively, even before the page's JavaScript has loaded. React passes these
 * lowercase attributes through; its typings do not list them yet.
 */
import "react";

declare module "react" {
  // The type parameter must match React's declaration for the interfaces to merge.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    command?: "show-modal" | "close" | "request-close" | "toggle-popover" | "show-popover" | "hide-popover";
    commandfor?: string;
  }
}
