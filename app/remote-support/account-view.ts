/**
 * The signed-in account, `GET /api/me` (issue 5; issue 29 adds `permissions`): `isTechnician` says the
 * dashboard is its screen (technicians and the manager); `permissions` are `server/access.ts` names, so the
 * dashboard shows the views they open (« Équipe », « Boutique », « Tarifs »).
 */
export type AccountView = {
  id: string;
  name: string;
  email: string;
  isTechnician: boolean;
  permissions?: readonly string[];
};
