// @vitest-environment happy-dom
/**
 * Issue 40 « Sauvegardes »: the last backup's date and time in the shop's time zone and its size in fr-FR
 * units, how to copy it elsewhere (the commands with the server's folder, the download after the password),
 * the server's folder as secondary information, and the copy noted once the download is done.
 */
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import BackupsView from "./backups-view.tsx";
import type { BackupStatusView } from "./protocol.ts";

const STATUS: BackupStatusView = {
  // 03:00 in Paris (UTC+1 in December).
  lastSuccessAt: "2026-12-01T02:00:00.000Z",
  lastFile: "/srv/atelier/data/backups/sauvegarde-2026-12-01-030000.gz",
  lastSizeBytes: 2_516_582,
  lastError: null,
  lastErrorAt: null,
  lastCopyAt: null,
  lastCopyKind: null,
  state: "ok",
  nightly: true,
  hour: 3,
  dir: "/srv/atelier/data/backups",
};

afterEach(() => vi.useRealTimers());

describe("« Sauvegardes »", () => {
  it("shows the last backup's time and size, how to copy it elsewhere, and the folder last", async () => {
    vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json(STATUS));
    render(<BackupsView />);
    expect(await screen.findByText("Dernière sauvegarde réussie : 01/12/2026 03:00:00 (2,4 Mo).")).toBeInTheDocument();
    expect(screen.getByText("Une sauvegarde est faite chaque nuit à 3 h (heure de la boutique).")).toBeInTheDocument();
    expect(screen.getByText(/^Aucune copie hors de ce serveur n'est connue/)).toBeInTheDocument();
    expect(screen.getByText('rsync -a "/srv/atelier/data/backups/" /media/usb/atelier/')).toBeInTheDocument();
    expect(screen.getByText('robocopy "/srv/atelier/data/backups" E:\\atelier\\sauvegardes /E')).toBeInTheDocument();
    const headings = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual(["Sauvegardes", "Copier la sauvegarde ailleurs", "Sur le serveur"]);
    expect(screen.getByText("/srv/atelier/data/backups")).toBeInTheDocument();
  });

  it("downloads the newest backup after the password, and notes the copy", async () => {
    const user = userEvent.setup();
    const fetch = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      if (String(input) === "/api/backups/status") return Response.json(STATUS);
      return new Response("gzip", {
        headers: {
          "Content-Type": "application/gzip",
          "Content-Disposition": 'attachment; filename="sauvegarde-2026-12-01-030000.gz"',
        },
      });
    });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    render(<BackupsView />);
    await user.type(await screen.findByLabelText(/^Votre mot de passe/), "motdepasse-gerant");
    await user.click(screen.getByRole("button", { name: "Télécharger la dernière sauvegarde" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "Sauvegarde téléchargée (sauvegarde-2026-12-01-030000.gz).",
    );
    expect(saved).toEqual(["sauvegarde-2026-12-01-030000.gz"]);
    expect(fetch).toHaveBeenCalledWith(
      "/api/backups/latest",
      expect.objectContaining({ method: "POST", body: JSON.stringify({ password: "motdepasse-gerant" }) }),
    );
    expect(screen.getByText(/^Dernière copie hors du serveur : .* \(téléchargée ici\)\.$/)).toBeInTheDocument();
  });

  it("says a wrong password next to the field, and downloads nothing", async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) =>
      String(input) === "/api/backups/status"
        ? Response.json(STATUS)
        : Response.json(
            { message: "Mot de passe incorrect : la sauvegarde n'a pas été téléchargée." },
            { status: 400 },
          ),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => undefined);
    render(<BackupsView />);
    const password = await screen.findByLabelText(/^Votre mot de passe/);
    await user.type(password, "pas-le-bon");
    await user.click(screen.getByRole("button", { name: "Télécharger la dernière sauvegarde" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Mot de passe incorrect");
    expect(password).toHaveAttribute("aria-invalid", "true");
    expect(click).not.toHaveBeenCalled();
    expect(within(screen.getByRole("alert")).queryByText(/téléchargée \(/)).toBeNull();
  });
});
