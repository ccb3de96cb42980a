/**
 * drizzle-kit: generates SQL migrations in `drizzle/` from `database/schema.ts` and `database/schema-ratings.ts`
 * (issue 17 §4), `database/schema-booking.ts` (issue 18), `database/schema-repairs.ts` (issue 18 §2) and
 * `database/schema-staff.ts` (issue 29), `database/schema-catalogue.ts` (issue 29, prices in the dashboard),
 * `database/schema-elevation.ts` (issue 36 §4), `database/schema-facts.ts` (issue 38 §4), `database/schema-requests.ts`
 * (issue 40, « Demandes » treated) (`npm run db:generate`).
 */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./database/schema.ts",
    "./database/schema-ratings.ts",
    "./database/schema-booking.ts",
    "./database/schema-repairs.ts",
    "./database/schema-staff.ts",
    "./database/schema-catalogue.ts",
    "./database/schema-elevation.ts",
    "./database/schema-facts.ts",
    "./database/schema-requests.ts",
  ],
  out: "./drizzle",
});
