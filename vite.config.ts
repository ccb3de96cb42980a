import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { catalogueIndexPlugin } from "./vite/catalogue-index-plugin.ts";
import { islandsPlugin } from "./vite/islands-plugin.ts";

export default defineConfig({
  plugins: [tailwindcss(), catalogueIndexPlugin(), islandsPlugin(), reactRouter()],
  build: { assetsInlineLimit: 0 },
});
