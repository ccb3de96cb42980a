/**
 * Issue 18 §1: the shop's time zone, in which every appointment time is shown and stored as wall clock.
 * Apart from `settings.ts` (zod) so that the slot choice's enhancer formats dates without it (issue 30).
 */
export const SHOP_TIME_ZONE = "Europe/Paris";
