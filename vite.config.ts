import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { islandsPlugin } from "./vite/islands-plugin.ts";

export default defineConfig({
  plugins: [tailwindcss(), islandsPlugin(), reactRouter()],
  build: { assetsInlineLimit: 0 },
});
