/**
 * Issue 29: the shop's current identity in a component. The root loader gives it to every page (from the
 * router context the server sets, `shopIdentityContext`), so the server render and the hydrated page read
 * the same value and pages follow a change made in « Boutique » without a rebuild. Outside a route tree
 * with the root loader (component tests), the defaults of app/config/shop.ts.
 */
import { useCallback, useContext } from "react";
import { UNSAFE_DataRouterContext, UNSAFE_DataRouterDataContext } from "react-router";
import { defaultShop, type ShopIdentity } from "#app/config/shop.ts";
import { sharedContext } from "#app/utils/server-context.ts";

/** Set by the server for every render (`AppOptions.sharedContext`): the identity's `current()` at that time. */
export const shopIdentityContext = sharedContext<ShopIdentity>("shop-identity");

/** The identity of the root loader's data, or the defaults. */
export function useShop(): ShopIdentity {
  // What `useRouteLoaderData("root")` reads, without its throw outside a data router (component tests,
  // an island's own React root): there, the defaults.
  const state = useContext(UNSAFE_DataRouterDataContext);
  const data = state?.loaderData.root as { shop?: ShopIdentity } | undefined;
  return data?.shop ?? defaultShop;
}

/**
 * Issue 40: a function that reads the loaders again, the root's included, so the header and footer show at
 * once what « Boutique » just saved, without a reload. A revalidation keeps every component mounted (the
 * dashboard keeps its open view and what is typed). Outside a data router (component tests): does nothing.
 */
export function useRefreshShop(): () => Promise<void> {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  return useCallback(async () => {
    await router?.revalidate();
  }, [router]);
}
