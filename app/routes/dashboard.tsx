/** /dashboard (spec §2: screen not shown): leads to the remote-support area. */
import { redirect } from "react-router";

export function loader() {
  throw redirect("/soft-assist");
}

export default function Dashboard() {
  return null;
}
