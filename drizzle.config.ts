/** drizzle-kit: generates SQL migrations in `drizzle/` from `database/schema.ts` (`npm run db:generate`). */
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./database/schema.ts",
  out: "./drizzle",
});
