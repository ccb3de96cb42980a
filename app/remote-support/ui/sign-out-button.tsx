/**
 * "Se déconnecter" (spec §2, both screens; §8: a sign-out failure is only
 * logged and the busy flag resets). A successful sign-out tells the other tabs
 * and lands on /soft-assist, i.e. the sign-in form.
 */
import { LogOut } from "lucide-react";
import { useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { authPost } from "#app/remote-support/client/api.ts";
import { announceAuthChange } from "#app/remote-support/client/auth-broadcast.ts";
import { useHydrated } from "#app/utils/use-hydrated.ts";

export function SignOutButton({ onSignedOut }: { onSignedOut: () => void }) {
  const [busy, setBusy] = useState(false);
  // Issue 30: disabled until hydrated, so a click while the scripts load is not lost without a word.
  const hydrated = useHydrated();
  async function signOut() {
    setBusy(true);
    const result = await authPost("/sign-out", {});
    if (!result.ok) {
      console.error("Erreur lors de la déconnexion", result.message);
      setBusy(false);
      return;
    }
    announceAuthChange("signed-out");
    onSignedOut();
  }
  return (
    <Button type="button" variant="secondary" onClick={signOut} disabled={busy || !hydrated}>
      <LogOut aria-hidden="true" className="size-5" />
      {busy ? "Déconnexion..." : "Se déconnecter"}
    </Button>
  );
}
