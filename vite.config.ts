import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { islandsPlugin } from "./vite/islands-plugin.ts";

export default defineConfig({
  plugins: [tailwindcss(), islandsPlugin(), reactRouter()],
  build: { assetsInlineLimit: 0 },
  // Issue 30 §2: bundled into the server build rather than loaded from node_modules at every start:
  // lucide-react's CommonJS entry alone is 1.3 MB of icons, zod about 80 modules to resolve.
  ssr: { noExternal: ["lucide-react", "clsx", "zod"] },
});
