import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { catalogueIndexPlugin } from "./vite/catalogue-index-plugin.ts";

export default defineConfig({
  plugins: [tailwindcss(), catalogueIndexPlugin(), reactRouter()],
  build: { assetsInlineLimit: 0 },
});
