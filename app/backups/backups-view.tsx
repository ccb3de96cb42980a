/**
 * Issue 40: the dashboard's « Sauvegardes » view, a lazy chunk shown only with `backups:read` (the manager),
 * in its own tab (it was a card inside « Équipe », issue 29). It shows the last backup (date and time in the
 * shop's time zone, size in fr-FR units) or what went wrong, when backups are made, and how to copy one off
 * the server: « Télécharger la dernière sauvegarde » after the manager's password, the command to run on
 * the server's machine, and « J'ai copié la sauvegarde ailleurs » for copies made another way. The server's
 * folder comes last, as secondary information.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, FormStatus, Input } from "#app/components/ui/field.tsx";
import { backupStatusText, copyText, scheduleText } from "./backup-status.ts";
import { declareBackupCopied, downloadLatestBackup, getBackupStatus } from "./client.ts";
import { BACKUP_MESSAGES, type BackupStatusView } from "./protocol.ts";

type Notice = { tone: "success" | "error"; text: string } | null;

export default function BackupsView() {
  const [status, setStatus] = useState<BackupStatusView | null>(null);
  const [failed, setFailed] = useState("");
  useEffect(() => {
    let current = true;
    void getBackupStatus().then((result) => {
      if (!current) return;
      if (result.ok) setStatus(result.data);
      else setFailed(result.message);
    });
    return () => {
      current = false;
    };
  }, []);

  if (failed) return <FormStatus tone="error">{failed}</FormStatus>;
  if (!status) return <p className="text-slate-300">Chargement…</p>;
  const text = backupStatusText(status);
  return (
    <div className="flex flex-col gap-8">
      <Card className="flex flex-col gap-3">
        <h2 className="text-2xl font-bold text-white">Sauvegardes</h2>
        <div role={text.alert ? "alert" : undefined} className={text.alert ? "text-red-300" : "text-slate-100"}>
          {text.lines.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
        <p className="text-slate-300">{scheduleText(status)}</p>
      </Card>
      <CopyElsewhere status={status} onStatus={setStatus} />
      <Card className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold text-white">Sur le serveur</h2>
        <p className="text-slate-300">
          Dossier des sauvegardes : <code className="font-mono break-all text-slate-100">{status.dir}</code>
        </p>
        {status.lastFile ? (
          <p className="text-slate-300">
            Dernier fichier : <code className="font-mono break-all text-slate-100">{status.lastFile}</code>
          </p>
        ) : null}
      </Card>
    </div>
  );
}

/** How to copy a backup off this machine, and the last time it was done. */
function CopyElsewhere({
  status,
  onStatus,
}: {
  status: BackupStatusView;
  onStatus: (status: BackupStatusView) => void;
}) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState<"download" | "declare" | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [fieldError, setFieldError] = useState("");
  const copy = copyText(status, new Date());
  const hasBackup = status.lastSuccessAt !== null;

  async function download(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) return setFieldError(BACKUP_MESSAGES.badBody);
    setBusy("download");
    setNotice(null);
    setFieldError("");
    const result = await downloadLatestBackup(password);
    setBusy(null);
    if (!result.ok) {
      if (result.status === 400) setFieldError(result.message);
      return setNotice({ tone: "error", text: result.message });
    }
    setPassword("");
    // The server notes the copy once the last byte is sent; shown here at once.
    onStatus({ ...status, lastCopyAt: new Date().toISOString(), lastCopyKind: "download" });
    setNotice({
      tone: "success",
      text: `Sauvegarde téléchargée (${result.data.name}). Rangez-la hors de la boutique : clé USB chiffrée, autre ordinateur.`,
    });
  }

  async function declare() {
    setBusy("declare");
    setNotice(null);
    const result = await declareBackupCopied();
    setBusy(null);
    if (!result.ok) return setNotice({ tone: "error", text: result.message });
    onStatus(result.data);
    setNotice({ tone: "success", text: BACKUP_MESSAGES.declared });
  }

  const linux = `rsync -a "${status.dir}/" /media/usb/atelier/`;
  const windows = `robocopy "${status.dir}" E:\\atelier\\sauvegardes /E`;
  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold text-white">Copier la sauvegarde ailleurs</h2>
      <p className="text-slate-200">
        Une sauvegarde gardée sur cette machine disparaît avec elle (panne de disque, vol, incendie). Au moins une fois
        par semaine, copiez la dernière sur une clé USB (chiffrée de préférence) rangée hors de la boutique, ou sur un
        autre ordinateur. Le fichier contient les données de vos clients : gardez-le aussi privé que vos dossiers.
      </p>
      <p className={copy.recent ? "text-emerald-300" : "font-medium text-amber-200"}>{copy.line}</p>
      <FormStatus tone={notice?.tone ?? "success"}>{notice?.text}</FormStatus>
      <form className="flex flex-col gap-4" onSubmit={download} noValidate>
        <h3 className="text-lg font-semibold text-white">Télécharger la dernière sauvegarde</h3>
        <FormField
          id={`${id}-mot-de-passe`}
          label="Votre mot de passe"
          required
          hint="Demandé à chaque téléchargement : le fichier contient toutes les données du site."
          error={fieldError || undefined}
        >
          {(control) => (
            <Input
              {...control}
              type="password"
              autoComplete="current-password"
              maxLength={128}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          )}
        </FormField>
        <Button type="submit" className="self-start" disabled={busy !== null || !hasBackup}>
          {busy === "download" ? "Téléchargement…" : "Télécharger la dernière sauvegarde"}
        </Button>
      </form>
      <h3 className="text-lg font-semibold text-white">Ou depuis la machine du serveur</h3>
      <p className="text-slate-200">Copie de tout le dossier des sauvegardes sur une clé USB, par exemple :</p>
      <dl className="flex flex-col gap-2 text-slate-200">
        <dt>Linux ou macOS (clé montée dans /media/usb) :</dt>
        <dd>
          <code className="block rounded-lg bg-slate-950 p-3 font-mono text-sm break-all text-slate-100">{linux}</code>
        </dd>
        <dt>Windows (clé E:) :</dt>
        <dd>
          <code className="block rounded-lg bg-slate-950 p-3 font-mono text-sm break-all text-slate-100">
            {windows}
          </code>
        </dd>
      </dl>
      <p className="text-slate-300">
        Copiez aussi une fois le fichier auth-secret du dossier des données du site (si la configuration du serveur fixe
        ce secret, gardez plutôt cette valeur) : sans lui, après une restauration, tout le monde doit se reconnecter et
        les liens des rendez-vous envoyés par e-mail ne marchent plus.
      </p>
      <Button
        type="button"
        variant="secondary"
        className="self-start"
        disabled={busy !== null}
        onClick={() => void declare()}
      >
        {busy === "declare" ? "Enregistrement…" : "J'ai copié la sauvegarde ailleurs"}
      </Button>
    </Card>
  );
}
