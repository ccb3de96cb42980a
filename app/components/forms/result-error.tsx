/** The error part of a request form's result (spec §8), shared by both forms. */
import { mailtoHref, telHref } from "#app/config/shop.ts";
import { useShop } from "#app/shop/use-shop.ts";
import type { FormActionData } from "#app/requests/action-data.ts";

const linkClass =
  "font-medium underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300";

/** The result's French message; when storing failed, the other ways to reach the shop. */
export function ResultError({ data }: { data: FormActionData }) {
  const shop = useShop();
  return (
    <>
      <p className="font-semibold">{data.message}</p>
      {data.result.status === "failed" ? (
        <p>
          Vous pouvez aussi nous appeler au{" "}
          <a className={linkClass} href={telHref(shop)}>
            {shop.phone.display}
          </a>{" "}
          ou nous écrire à{" "}
          <a className={`${linkClass} break-all`} href={mailtoHref(shop)}>
            {shop.email}
          </a>
          .
        </p>
      ) : null}
    </>
  );
}
