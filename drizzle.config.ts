/**
 * drizzle-kit: generates SQL migrations in `drizzle/` from `database/schema.ts` and `database/schema-ratings.ts`
 * (issue 17 §4) and `database/schema-booking.ts` (issue 18) (`npm run db:generate`).
 */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./database/schema.ts", "./database/schema-ratings.ts", "./database/schema-booking.ts"],
  out: "./drizzle",
});
