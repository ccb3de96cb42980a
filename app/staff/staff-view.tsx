/**
 * The manager's « Équipe » view (issue 29), a lazy chunk of the dashboard shown only with `staff:manage`:
 * the staff accounts (name, e-mail, role, created, last sign-in, active or disabled) with « Désactiver » /
 * « Réactiver » and « Envoyer un lien de réinitialisation », the pending invitations (« Annuler »), and
 * « Inviter un technicien » by e-mail. Every rule is the server's (`server/staff/`): this view shows its
 * French answers as they come and reads the list again after each change. Issue 40: when mail does not leave
 * the server, the invitation says so plainly and gives its link to copy (`copy-link.tsx`); the backups have
 * their own view (« Sauvegardes », `app/backups/`).
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { FormField, FormStatus, Input } from "#app/components/ui/field.tsx";
import { formatDateTime } from "#app/remote-support/client/format.ts";
import { CopyLink } from "./copy-link.tsx";
import { FreshReads } from "#app/utils/fresh-reads.ts";
import { getStaff, inviteTechnician, revokeInvitation, sendPasswordReset, setMemberDisabled } from "./client.ts";
import { STAFF_ROLE_LABELS, type StaffListResponse, type StaffMember } from "./protocol.ts";

type Notice = { tone: "success" | "error"; text: string } | null;

/** The « Équipe » view; `selfId` is the signed-in manager (no « Désactiver » on their own row). */
export default function StaffView({ selfId }: { selfId: string }) {
  const [staff, setStaff] = useState<StaffListResponse | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<string | null>(null);

  // Actions follow each other faster than the reads after them: only the last read asked is shown.
  const [freshReads] = useState(() => new FreshReads());
  const load = useCallback(async (): Promise<void> => {
    const ticket = freshReads.begin();
    const result = await getStaff();
    const verdict = freshReads.verdict(ticket);
    if (verdict === "again") return load();
    if (verdict === "drop") return;
    if (result.ok) setStaff(result.data);
    else setNotice({ tone: "error", text: result.message });
  }, [freshReads]);
  useEffect(() => {
    void load();
  }, [load]);

  /** Runs one action (`key` marks its button busy), says how it went, then reads the list again. */
  async function act(
    key: string,
    action: () => Promise<{ ok: true; data: { message: string } } | { ok: false; message: string }>,
  ) {
    setBusy(key);
    setNotice(null);
    const result = await action();
    if (result.ok) freshReads.changed();
    setBusy(null);
    setNotice(result.ok ? { tone: "success", text: result.data.message } : { tone: "error", text: result.message });
    await load();
  }

  return (
    <div className="flex flex-col gap-8">
      <InviteForm onInvited={load} />
      <Card className="flex flex-col gap-4">
        <h2 className="text-2xl font-bold text-white">L'équipe</h2>
        <FormStatus tone={notice?.tone === "success" ? "success" : "error"}>{notice?.text ?? null}</FormStatus>
        {staff === null ? (
          <p className="text-slate-300">Chargement…</p>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Comptes de l'équipe">
            {staff.members.map((member) => (
              <MemberRow
                key={member.id}
                member={member}
                self={member.id === selfId}
                busy={busy}
                onDisable={(disabled) => void act(`disable-${member.id}`, () => setMemberDisabled(member.id, disabled))}
                onReset={() => void act(`reset-${member.id}`, () => sendPasswordReset(member.id))}
              />
            ))}
          </ul>
        )}
      </Card>
      <Card className="flex flex-col gap-4">
        <h2 className="text-2xl font-bold text-white">Invitations en attente</h2>
        {staff === null ? null : staff.invitations.length === 0 ? (
          <p className="text-slate-300">Aucune invitation en attente.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {staff.invitations.map((invitation) => (
              <li
                key={invitation.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-700 p-4"
              >
                <div className="flex flex-col gap-1">
                  <span className="font-semibold break-all text-white">{invitation.email}</span>
                  <span className="text-slate-300">
                    {invitation.expired
                      ? `Lien expiré le ${formatDateTime(invitation.expiresAt)}`
                      : `Créée le ${formatDateTime(invitation.createdAt)}, valable jusqu'au ${formatDateTime(invitation.expiresAt)}`}
                  </span>
                </div>
                <Button
                  type="button"
                  variant="secondary"
                  disabled={busy !== null}
                  aria-label={`Annuler l'invitation de ${invitation.email}`}
                  onClick={() => void act(`revoke-${invitation.id}`, () => revokeInvitation(invitation.id))}
                >
                  Annuler
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

function MemberRow({
  member,
  self,
  busy,
  onDisable,
  onReset,
}: {
  member: StaffMember;
  self: boolean;
  busy: string | null;
  onDisable: (disabled: boolean) => void;
  onReset: () => void;
}) {
  const disabled = member.disabledAt !== null;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-700 p-4">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-lg font-semibold text-white">{member.name}</span>
        <span className="break-all text-slate-200">{member.email}</span>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-slate-200 sm:grid-cols-2">
        <div className="flex gap-2">
          <dt className="text-slate-300">Rôle :</dt>
          <dd>{STAFF_ROLE_LABELS[member.role]}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-300">État :</dt>
          <dd className={disabled ? "font-semibold text-red-300" : "text-emerald-300"}>
            {disabled ? "Désactivé" : "Actif"}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-300">Créé le :</dt>
          <dd>{formatDateTime(member.createdAt)}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-300">Dernière connexion :</dt>
          <dd>{member.lastSignInAt ? formatDateTime(member.lastSignInAt) : "jamais"}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-2">
        {self ? null : (
          <Button
            type="button"
            variant="secondary"
            disabled={busy !== null}
            aria-label={`${disabled ? "Réactiver" : "Désactiver"} le compte de ${member.name}`}
            onClick={() => onDisable(!disabled)}
          >
            {busy === `disable-${member.id}` ? "Enregistrement…" : disabled ? "Réactiver" : "Désactiver"}
          </Button>
        )}
        <Button
          type="button"
          variant="secondary"
          disabled={busy !== null}
          aria-label={`Envoyer un lien de réinitialisation du mot de passe à ${member.name}`}
          onClick={onReset}
        >
          {busy === `reset-${member.id}` ? "Envoi…" : "Envoyer un lien de réinitialisation"}
        </Button>
      </div>
    </li>
  );
}

function InviteForm({ onInvited }: { onInvited: () => Promise<void> }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Notice>(null);
  // Issue 40: the link to pass on by hand, when the invitation could not be mailed.
  const [link, setLink] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState("");
  const status = useRef<HTMLDivElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    setLink(null);
    setFieldError("");
    const answer = await inviteTechnician(email);
    setBusy(false);
    if (!answer.ok) {
      setFieldError(answer.fieldErrors?.email ?? "");
      setResult({ tone: "error", text: answer.message });
      return;
    }
    setEmail("");
    const { message, invitation, mailSent } = answer.data;
    // Not sent is said as a warning (`role="alert"`), never as a success.
    setResult({ tone: mailSent ? "success" : "error", text: `${message} (${invitation.email})` });
    setLink(mailSent ? null : (answer.data.link ?? null));
    await onInvited();
  }

  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold text-white">Inviter un technicien</h2>
      <p className="text-slate-200">
        La personne reçoit un lien valable 7 jours, utilisable une fois, pour choisir son nom et son mot de passe.
        Inviter à nouveau la même adresse remplace l'ancien lien.
      </p>
      <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
        <FormField id={`${id}-email`} label="Adresse e-mail du technicien" required error={fieldError || undefined}>
          {(control) => (
            <Input
              {...control}
              name="email"
              type="email"
              autoComplete="off"
              maxLength={254}
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </FormField>
        <FormStatus ref={status} tone={result?.tone === "success" ? "success" : "error"}>
          {result?.text ?? null}
        </FormStatus>
        {link ? <CopyLink link={link} label="Lien d'invitation à transmettre" /> : null}
        <div>
          <Button type="submit" disabled={busy || email.trim() === ""}>
            {busy ? "Envoi…" : "Inviter un technicien"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
