/**
 * Unknown paths (spec §2): a direct hit gets a server 302 to /; an in-app
 * navigation is redirected with `replace`, so Back never returns to the
 * unknown path.
 */
import { replace } from "react-router";

export function loader() {
  throw replace("/");
}

export default function CatchAll() {
  return null;
}
