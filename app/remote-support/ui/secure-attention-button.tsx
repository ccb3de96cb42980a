/**
 * « Ctrl+Alt+Suppr » in the technician's remote view, while control is active (issues 15, 36 §2). A Linux desktop
 * takes it from the app. Windows reserves it for the system: the button is there too, because a technician
 * looks for it on a Windows computer first; pressing it asks the app (which tells the customer why not) and
 * shows the same explanation here at once. macOS has no such combination: no button.
 */
import { useState } from "react";
import { type DevicePlatform, SAS_REASON_WINDOWS } from "#app/remote-support/device-protocol.ts";
import { Button } from "#app/components/ui/button.tsx";

/** `send`: sends the combination to the app (`DeviceInputSender.secureAttention`), null while control is off. */
export function SecureAttentionButton({
  platform,
  send,
}: {
  platform: DevicePlatform | null | undefined;
  send: (() => void) | null;
}) {
  const [refusal, setRefusal] = useState("");
  if (!send || (platform !== "linux" && platform !== "windows")) return null;
  return (
    <>
      <Button
        type="button"
        variant="secondary"
        onClick={() => {
          send();
          if (platform === "windows") setRefusal(SAS_REASON_WINDOWS);
        }}
      >
        Ctrl+Alt+Suppr
      </Button>
      {refusal ? (
        <p role="status" className="basis-full text-sm font-medium text-amber-200">
          {refusal}
        </p>
      ) : null}
    </>
  );
}
