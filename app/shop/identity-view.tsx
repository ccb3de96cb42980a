/**
 * Issue 29: the dashboard's « Boutique » view, a lazy chunk shown only with `shop:manage`: every field of
 * the shop's identity (name, tagline, phone, e-mail, address, opening hours, legal notices, host) in one
 * form, « Enregistrer » sending it to `PUT /api/shop/identity`. The server validates (the same schema,
 * `app/config/shop-schema.ts`); its French messages show next to their fields (`aria-invalid`,
 * `aria-describedby`). Pages, mails and the assistant follow within seconds, without a rebuild. Issue 40:
 * this page's own header and footer follow at once (the loaders are read again, nothing is remounted), and
 * « Envoyer un e-mail de test » sits below the form (`test-mail.tsx`).
 */
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { FieldError, FormField, FormStatus, Input } from "#app/components/ui/field.tsx";
import { MAX_OPENING_SLOTS, type ShopIdentityInput } from "#app/config/shop-schema.ts";
import { formatDateTime } from "#app/remote-support/client/format.ts";
import { getShopIdentity, saveShopIdentity } from "./client.ts";
import { SHOP_MESSAGES } from "./protocol.ts";
import { TestMailPanel } from "./test-mail.tsx";
import { useRefreshShop } from "./use-shop.ts";

type Notice = { tone: "success" | "error"; text: string } | null;
type Slot = ShopIdentityInput["openingHours"][number];
const DAYS = ["Lundi", "Mardi", "Mercredi", "Jeudi", "Vendredi", "Samedi", "Dimanche"] as const;

/** A string field of the identity, by its path (e.g. "address.city"), for the generic text inputs. */
type TextPath =
  | "name"
  | "tagline"
  | "phone"
  | "email"
  | "address.street"
  | "address.postalCode"
  | "address.city"
  | "legal.entity"
  | "legal.form"
  | "legal.registration"
  | "legal.vatNumber"
  | "legal.publicationDirector"
  | "legal.host.name"
  | "legal.host.address"
  | "legal.host.phone";

function read(values: ShopIdentityInput, path: TextPath): string {
  let value: unknown = values;
  for (const key of path.split(".")) value = (value as Record<string, unknown>)[key];
  return typeof value === "string" ? value : "";
}

function write(values: ShopIdentityInput, path: TextPath, text: string): ShopIdentityInput {
  const keys = path.split(".");
  const copy = structuredClone(values) as unknown as Record<string, Record<string, unknown>>;
  let target: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[keys.at(-1)!] = text;
  return copy as unknown as ShopIdentityInput;
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-4 rounded-2xl border border-slate-700/80 p-4">
      <legend className="px-1 text-lg font-semibold text-white">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** The « Boutique » view: loads the values, edits them, stores them. */
export default function ShopIdentityView() {
  const ids = useId();
  const [values, setValues] = useState<ShopIdentityInput | null>(null);
  const [updatedAt, setUpdatedAt] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const statusRef = useRef<HTMLDivElement>(null);
  const refreshShop = useRefreshShop();

  useEffect(() => {
    void getShopIdentity().then((result) => {
      if (result.ok) {
        setValues(result.data.identity.values);
        setUpdatedAt(result.data.identity.updatedAt);
      } else setNotice({ tone: "error", text: result.message });
    });
  }, []);

  if (!values) {
    return notice ? <FormStatus tone="error">{notice.text}</FormStatus> : <p className="text-slate-300">Chargement…</p>;
  }

  const text = (
    path: TextPath,
    label: string,
    options: { type?: string; hint?: string; autoComplete?: string } = {},
  ) => (
    <FormField id={`${ids}-${path}`} label={label} required hint={options.hint} error={errors[path]}>
      {(control) => (
        <Input
          {...control}
          type={options.type ?? "text"}
          autoComplete={options.autoComplete ?? "off"}
          value={read(values, path)}
          onChange={(event) => setValues(write(values, path, event.target.value))}
        />
      )}
    </FormField>
  );
  const setSlot = (index: number, change: Partial<Slot>) =>
    setValues({
      ...values,
      openingHours: values.openingHours.map((slot, at) => (at === index ? { ...slot, ...change } : slot)),
    });

  async function save() {
    if (!values) return;
    setBusy(true);
    setNotice(null);
    const result = await saveShopIdentity(values);
    setBusy(false);
    if (result.ok) {
      setValues(result.data.identity.values);
      setUpdatedAt(result.data.identity.updatedAt);
      setErrors({});
      setNotice({ tone: "success", text: SHOP_MESSAGES.saved });
      void refreshShop();
    } else {
      setErrors(result.fieldErrors);
      setNotice({ tone: "error", text: result.message });
    }
    statusRef.current?.focus();
  }

  return (
    <div className="flex flex-col gap-8">
      <form
        className="flex flex-col gap-5"
        aria-labelledby={`${ids}-titre`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <h3 id={`${ids}-titre`} className="text-xl font-semibold text-white">
          Boutique
        </h3>
        <p className="text-slate-300">
          {SHOP_MESSAGES.propagation}{" "}
          {updatedAt ? `Dernière modification : ${formatDateTime(updatedAt)}.` : "Valeurs par défaut du site."}
        </p>
        <Group legend="La boutique">
          {text("name", "Nom de la boutique", { autoComplete: "organization" })}
          {text("tagline", "Slogan", { hint: "Dans les titres des pages et le pied de page." })}
          {text("phone", "Téléphone", { type: "tel", hint: "Numéro français, par exemple 01 23 45 67 89." })}
          {text("email", "Adresse e-mail", { type: "email" })}
        </Group>
        <Group legend="Adresse">
          {text("address.street", "Rue")}
          <div className="grid gap-4 sm:grid-cols-2">
            {text("address.postalCode", "Code postal")}
            {text("address.city", "Ville")}
          </div>
        </Group>
        <Group legend="Horaires d'ouverture">
          {errors.openingHours ? <FieldError>{errors.openingHours}</FieldError> : null}
          {values.openingHours.length === 0 ? <p className="text-slate-300">Aucun horaire affiché.</p> : null}
          {values.openingHours.map((slot, index) => (
            <fieldset key={index} className="flex flex-col gap-3 rounded-xl border border-slate-700/60 p-3">
              <legend className="px-1 font-medium text-slate-100">Ligne {index + 1}</legend>
              <div
                className="flex flex-wrap gap-x-4 gap-y-2"
                role="group"
                aria-label={`Jours de la ligne ${index + 1}`}
              >
                {DAYS.map((day, at) => (
                  <label key={day} className="flex min-h-11 items-center gap-2 text-slate-100">
                    <input
                      type="checkbox"
                      className="size-5"
                      checked={slot.days.includes(at + 1)}
                      aria-describedby={errors[`openingHours.${index}.days`] ? `${ids}-jours-${index}` : undefined}
                      onChange={(event) =>
                        setSlot(index, {
                          days: event.target.checked
                            ? [...slot.days, at + 1].sort((a, b) => a - b)
                            : slot.days.filter((d) => d !== at + 1),
                        })
                      }
                    />
                    {day}
                  </label>
                ))}
              </div>
              {errors[`openingHours.${index}.days`] ? (
                <FieldError id={`${ids}-jours-${index}`}>{errors[`openingHours.${index}.days`]}</FieldError>
              ) : null}
              <div className="grid gap-4 sm:grid-cols-2">
                {(["opens", "closes"] as const).map((key) => (
                  <FormField
                    key={key}
                    id={`${ids}-${key}-${index}`}
                    label={key === "opens" ? "Ouverture" : "Fermeture"}
                    required
                    error={errors[`openingHours.${index}.${key}`]}
                  >
                    {(control) => (
                      <Input
                        {...control}
                        type="time"
                        value={slot[key]}
                        onChange={(event) => setSlot(index, { [key]: event.target.value })}
                      />
                    )}
                  </FormField>
                ))}
              </div>
              <label className="flex min-h-11 items-center gap-2 text-slate-100">
                <input
                  type="checkbox"
                  className="size-5"
                  checked={slot.byAppointment === true}
                  onChange={(event) => setSlot(index, { byAppointment: event.target.checked })}
                />
                Sur rendez-vous
              </label>
              <Button
                type="button"
                variant="secondary"
                className="self-start"
                onClick={() =>
                  setValues({ ...values, openingHours: values.openingHours.filter((_, at) => at !== index) })
                }
              >
                Retirer la ligne {index + 1}
              </Button>
            </fieldset>
          ))}
          {values.openingHours.length < MAX_OPENING_SLOTS ? (
            <Button
              type="button"
              variant="secondary"
              className="self-start"
              onClick={() =>
                setValues({
                  ...values,
                  openingHours: [
                    ...values.openingHours,
                    { days: [], opens: "09:00", closes: "18:00", byAppointment: false },
                  ],
                })
              }
            >
              Ajouter une ligne d'horaires
            </Button>
          ) : null}
        </Group>
        <Group legend="Mentions légales">
          {text("legal.entity", "Raison sociale")}
          {text("legal.form", "Forme juridique")}
          <FormField id={`${ids}-capital`} label="Capital social (euros)" required error={errors["legal.capitalEuros"]}>
            {(control) => (
              <Input
                {...control}
                type="number"
                inputMode="numeric"
                min={0}
                value={Number.isFinite(values.legal.capitalEuros) ? values.legal.capitalEuros : ""}
                onChange={(event) =>
                  setValues({ ...values, legal: { ...values.legal, capitalEuros: event.target.valueAsNumber } })
                }
              />
            )}
          </FormField>
          {text("legal.registration", "Immatriculation (RCS)")}
          {text("legal.vatNumber", "Numéro de TVA intracommunautaire")}
          {text("legal.publicationDirector", "Directeur de la publication")}
        </Group>
        <Group legend="Hébergeur du site">
          {text("legal.host.name", "Nom de l'hébergeur")}
          {text("legal.host.address", "Adresse de l'hébergeur")}
          {text("legal.host.phone", "Téléphone de l'hébergeur")}
        </Group>
        <FormStatus ref={statusRef} tone={notice?.tone ?? "success"}>
          {notice?.text}
        </FormStatus>
        <Button type="submit" className="self-start" disabled={busy}>
          {busy ? "Enregistrement…" : "Enregistrer"}
        </Button>
      </form>
      <TestMailPanel />
    </div>
  );
}
